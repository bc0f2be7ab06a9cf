package dev.starling.exec;

/**
 * A query stopped because its join tables, groups and buffered rows came to hold more host memory
 * than its session's {@code memory_limit}.
 */
public final class QueryMemoryLimitException extends QueryCancelledException {
    QueryMemoryLimitException(long limit, long held) {
        super("the query needed more than its memory limit of " + Settings.describeSize(limit)
                + " for its join tables, groups and buffered rows (" + Settings.describeSize(held)
                + " when it was stopped); SET memory_limit changes the session's limit");
    }
}
