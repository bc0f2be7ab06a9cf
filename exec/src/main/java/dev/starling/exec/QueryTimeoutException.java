package dev.starling.exec;

import java.time.Duration;

/** A query stopped because it ran past its time limit: the session's query_timeout, or the client's deadline. */
public final class QueryTimeoutException extends QueryCancelledException {
    QueryTimeoutException(Duration limit) {
        super("the query ran past its time limit of " + text(limit)
                + " and was stopped (SET query_timeout changes the session's limit)");
    }

    private static String text(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 != 0 ? ms + " ms" : ms % 60_000 != 0 || ms == 0 ? ms / 1000 + " s" : ms / 60_000 + " min";
    }
}
