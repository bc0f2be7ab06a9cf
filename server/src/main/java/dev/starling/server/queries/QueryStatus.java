package dev.starling.server.queries;

/** How a query ended, as the status page, the query log and the metrics name it. */
public enum QueryStatus {
    OK, FAILED, CANCELLED, TIMED_OUT;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
