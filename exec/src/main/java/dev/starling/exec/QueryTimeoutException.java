package dev.starling.exec;

import java.time.Duration;

/** A query stopped because it ran past its time limit: the session's query_timeout, or the client's deadline. */
public final class QueryTimeoutException extends QueryCancelledException {
    QueryTimeoutException(Duration limit) {
        super("the query ran past its time limit of " + Settings.describe(limit)
                + " and was stopped (SET query_timeout changes the session's limit)");
    }
}
