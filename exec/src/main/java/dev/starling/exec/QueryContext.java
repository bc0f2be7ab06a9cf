package dev.starling.exec;

import dev.starling.exec.accel.Settings;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One running query: its cancellation flag, checked by every worker at least once per morsel and
 * per batch, its session's settings (the backend it asks for), and counters of the work done (chunks read and
 * chunks skipped by zone maps).
 */
public final class QueryContext {
    private final Settings settings;
    private volatile boolean cancelled;
    private final AtomicLong chunksScanned = new AtomicLong();
    private final AtomicLong chunksSkipped = new AtomicLong();

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
}
