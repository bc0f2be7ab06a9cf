package dev.starling.server.queries;

import java.time.Instant;

/**
 * One query as the status page, the query log and the metrics see it: who asked what, how it
 * ran and ended, what it sent, and where its time went. {@code status} is {@code running} while it
 * runs; {@code planMs} is the planning this run paid for (0 when it reused a prepared plan),
 * {@code firstBatchMs} the time from its start (after planning) to its first result batch,
 * {@code totalMs} its planning and the time from its start to its end; {@code rows} and {@code bytes} are what it sent to its client,
 * {@code rowsWritten} what a data statement wrote; {@code backend} is where its pipelines ran (cpu, gpu, gpu+cpu, or
 * none when nothing ran: a data statement, EXPLAIN, a failure before running).
 */
public record QueryRecord(String id, String user, String sql, String planHash, String backend, String status,
                          String error, Instant started, double planMs, double firstBatchMs, double totalMs,
                          long rows, long bytes, long rowsWritten) {
}
