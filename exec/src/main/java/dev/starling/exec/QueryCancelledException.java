package dev.starling.exec;

import dev.starling.exec.run.Executor;

/** Thrown from {@link Executor#run} when the query's {@link QueryContext} was cancelled. */
public final class QueryCancelledException extends RuntimeException {
    public QueryCancelledException() {
        super("query cancelled");
    }
}
