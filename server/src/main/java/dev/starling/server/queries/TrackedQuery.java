package dev.starling.server.queries;

import java.time.Instant;
import java.util.UUID;

/**
 * A query while it runs, as the status page shows it. The thread that streams its result reports
 * what it sent; other threads only read.
 */
public final class TrackedQuery {
    private final String id = UUID.randomUUID().toString();
    private final String user;
    private final String sql;
    private final Instant started = Instant.now();
    private final long startNanos = System.nanoTime();
    private final long planNanos;
    private volatile long rows;
    private volatile long bytes;
    private volatile long rowsWritten;
    private volatile long firstBatchNanos = -1;

    TrackedQuery(String user, String sql, long planNanos) {
        this.user = user;
        this.sql = sql;
        this.planNanos = planNanos;
    }

    public String id() {
        return id;
    }

    /** A result batch of {@code batchRows} rows and {@code batchBytes} bytes went to the client. */
    public void sent(long batchRows, long batchBytes) {
        if (firstBatchNanos < 0) {
            firstBatchNanos = System.nanoTime() - startNanos;
        }
        rows += batchRows;
        bytes += batchBytes;
    }

    /** The data statement has written {@code written} rows (so far, while it runs). */
    public void wrote(long written) {
        rowsWritten = written;
    }

    QueryRecord record(String status, String backend, String planHash, String error) {
        long first = firstBatchNanos;
        return new QueryRecord(id, user, sql, planHash, backend, status, error, started, planNanos / 1e6,
                first < 0 ? 0 : first / 1e6, (planNanos + System.nanoTime() - startNanos) / 1e6, rows, bytes, rowsWritten);
    }
}
