package dev.starling.exec;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One running query: its cancellation flag, checked by every worker at least once per morsel and
 * per batch, its session's settings (the backend it asks for), counters of the work done (chunks read and
 * chunks skipped by zone maps), and where each pipeline of its graph ran.
 */
public final class QueryContext {
    private final Settings settings;
    private volatile boolean cancelled;
    private final AtomicLong chunksScanned = new AtomicLong();
    private final AtomicLong chunksSkipped = new AtomicLong();
    private final Map<Integer, String> ranOn = new TreeMap<>();

    public QueryContext() {
        this(Settings.DEFAULT);
    }

    public QueryContext(Settings settings) {
        this.settings = settings;
    }

    public Settings settings() {
        return settings;
    }

    /** Asks the query to stop; it fails with {@link QueryCancelledException} at the next check. */
    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public void checkCancelled() {
        if (cancelled) {
            throw new QueryCancelledException();
        }
    }

    public long chunksScanned() {
        return chunksScanned.get();
    }

    public long chunksSkipped() {
        return chunksSkipped.get();
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
}
