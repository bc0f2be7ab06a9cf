package dev.starling.exec;

/** Thrown from {@code Executor.run} when the query's {@link QueryContext} was cancelled. */
public final class QueryCancelledException extends RuntimeException {
    public QueryCancelledException() {
        super("query cancelled");
    }
}
