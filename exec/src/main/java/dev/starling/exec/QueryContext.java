package dev.starling.exec;

import dev.starling.exec.accel.BackendMode;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One running query: its cancellation flag, checked by every worker at least once per morsel and
 * per batch, the backend its session asks for, and counters of the work done (chunks read and
 * chunks skipped by zone maps).
 */
public final class QueryContext {
    private final BackendMode backendMode;
    private volatile boolean cancelled;
    private final AtomicLong chunksScanned = new AtomicLong();
    private final AtomicLong chunksSkipped = new AtomicLong();

    public QueryContext() {
        this(BackendMode.AUTO);
    }

    public QueryContext(BackendMode backendMode) {
        this.backendMode = backendMode;
    }

    public BackendMode backendMode() {
        return backendMode;
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
