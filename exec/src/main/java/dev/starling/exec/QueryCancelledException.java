package dev.starling.exec;

/** Thrown from {@code Executor.run} when the query's {@link QueryContext} was cancelled. */
public class QueryCancelledException extends RuntimeException {
    public QueryCancelledException() {
        this("query cancelled");
    }

    protected QueryCancelledException(String message) {
        super(message);
    }
}
