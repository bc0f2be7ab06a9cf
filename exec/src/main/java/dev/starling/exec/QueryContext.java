package dev.starling.exec;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One running query: its cancellation flag and time limit, checked by every worker at least once
 * per morsel and per batch, its session's settings (the backend it asks for), the memory its state
 * holds against its memory limit, counters of the work done (chunks read and chunks skipped by zone
 * maps), and where each pipeline of its graph ran and what it did ({@link QueryProfile}).
 * The limit is checked where the flag is, so no timer thread is needed to stop a query.
 */
public final class QueryContext {
    private final Settings settings;
    private final long startedAt = System.nanoTime();
    /** The time limit from the start, in nanoseconds; 0 for none. */
    private volatile long limitNanos;
    /** Why the query stops; null while it runs. */
    private volatile QueryCancelledException reason;
    private final AtomicLong chunksScanned = new AtomicLong();
    private final AtomicLong chunksSkipped = new AtomicLong();
    private final AtomicLong workerNanos = new AtomicLong();
    private final AtomicLong heldBytes = new AtomicLong();
    private final AtomicLong peakBytes = new AtomicLong();
    private final Map<Integer, String> ranOn = new TreeMap<>();
    private final QueryProfile profile = new QueryProfile();

    public QueryContext() {
        this(Settings.DEFAULT);
    }

    /** A query starting now, limited to its session's {@code query_timeout}. */
    public QueryContext(Settings settings) {
        this.settings = settings;
        this.limitNanos = settings.queryTimeout().toNanos();
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Limits the query to {@code remaining} from now as well (a client's deadline), if that ends
     * earlier than the limit it has.
     */
    public void limitTo(Duration remaining) {
        long at = System.nanoTime() - startedAt + Math.max(0, remaining.toNanos());
        if (limitNanos == 0 || at < limitNanos) {
            limitNanos = Math.max(1, at);
        }
    }

    /** Asks the query to stop; it fails with {@link QueryCancelledException} at the next check. */
    public void cancel() {
        stop(new QueryCancelledException());
    }

    /** Whether the query was cancelled or ran past its time limit. */
    public boolean isCancelled() {
        if (reason == null && limitNanos != 0 && System.nanoTime() - startedAt > limitNanos) {
            stop(new QueryTimeoutException(Duration.ofNanos(limitNanos)));
        }
        return reason != null;
    }

    /** Throws why the query stops ({@link QueryTimeoutException} past its time limit), if it does. */
    public void checkCancelled() {
        if (isCancelled()) {
            throw reason;
        }
    }

    /** The first reason to stop wins: a query cancelled after it timed out still reports the timeout. */
    private synchronized void stop(QueryCancelledException why) {
        if (reason == null) {
            reason = why;
        }
    }

    /**
     * Counts {@code bytes} more (fewer, when negative) of host memory held by the query's state:
     * join tables, groups, buffered rows, in the units {@code StateMemory} estimates them. Past the
     * session's {@code memory_limit} the query stops with {@link QueryMemoryLimitException}, every
     * worker at its next check.
     */
    public void hold(long bytes) {
        long now = heldBytes.addAndGet(bytes);
        peakBytes.accumulateAndGet(now, Math::max);
        long limit = settings.memoryLimit();
        if (bytes > 0 && limit > 0 && now > limit) {
            stop(new QueryMemoryLimitException(limit, now));
            throw reason;
        }
    }

    /** The most memory the query's state has held at once so far. */
    public long peakBytes() {
        return peakBytes.get();
    }

    public long chunksScanned() {
        return chunksScanned.get();
    }

    public long chunksSkipped() {
        return chunksSkipped.get();
    }

    /** The time workers have spent on the query so far, all pipelines and threads together. */
    public long workerNanos() {
        return workerNanos.get();
    }

    public void addWorkerNanos(long n) {
        workerNanos.addAndGet(n);
    }

    public void addChunksScanned(long n) {
        chunksScanned.addAndGet(n);
    }

    public void addChunksSkipped(long n) {
        chunksSkipped.addAndGet(n);
    }

    /**
     * Records that pipeline {@code id} of the query's graph ran on {@code device} (cpu, gpu or
     * gpu+cpu); ids below 0 are not the graph's. One that ran on both (a build side the GPU built
     * for its kernel and the CPU for the CPU workers sharing its rows) ran on gpu+cpu.
     */
    public void ran(int id, String device) {
        if (id >= 0) {
            synchronized (ranOn) {
                ranOn.merge(id, device, (before, now) -> before.equals(now) ? now : "gpu+cpu");
            }
        }
    }

    /** Where each pipeline of the query's graph that has run so far ran, by pipeline number. */
    public Map<Integer, String> ranOn() {
        synchronized (ranOn) {
            return Map.copyOf(ranOn);
        }
    }

    /** What each pipeline did as it ran: its time and rows, for EXPLAIN ANALYZE. */
    public QueryProfile profile() {
        return profile;
    }
}
