package dev.starling.gpu.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * Mapped pinned host memory kept for reuse up to a cap: pinning fresh memory costs about 0.45 s
 * per GB (docs/BENCHMARKS.md), which a partitioned join's build keys or a shared join table paid
 * on every query. A request takes the smallest kept allocation that holds it with at most twice
 * its size, else a new one rounded up to {@value #GRAIN} bytes.
 */
public final class MappedHostPool implements AutoCloseable {
    private static final long GRAIN = 2 << 20;

    private final GpuDevice device;
    private final long keepBytes;
    private final List<MappedHostBuffer.Allocation> kept = new ArrayList<>();
    private long keptBytes;

    /** A pool that keeps at most {@code keepBytes} of returned memory. */
    MappedHostPool(GpuDevice device, long keepBytes) {
        this.device = device;
        this.keepBytes = keepBytes;
    }

    /** {@code bytes} of mapped pinned host memory; closing the buffer returns it here. */
    public MappedHostBuffer take(long bytes) {
        MappedHostBuffer.Allocation a = reuse(bytes);
        if (a == null) {
            a = MappedHostBuffer.Allocation.pin(device, (Math.max(1, bytes) + GRAIN - 1) / GRAIN * GRAIN);
        }
        return new MappedHostBuffer(a, bytes, this::give);
    }

    private synchronized MappedHostBuffer.Allocation reuse(long bytes) {
        MappedHostBuffer.Allocation best = null;
        for (MappedHostBuffer.Allocation a : kept) {
            if (a.bytes() >= bytes && a.bytes() <= 2 * Math.max(bytes, GRAIN) && (best == null || a.bytes() < best.bytes())) {
                best = a;
            }
        }
        if (best != null) {
            kept.remove(best);
            keptBytes -= best.bytes();
        }
        return best;
    }

    private void give(MappedHostBuffer.Allocation a) {
        synchronized (this) {
            if (keptBytes + a.bytes() <= keepBytes) {
                kept.add(a);
                keptBytes += a.bytes();
                return;
            }
        }
        a.free();
    }

    /** Bytes kept for reuse. */
    public synchronized long keptBytes() {
        return keptBytes;
    }

    @Override
    public synchronized void close() {
        kept.forEach(MappedHostBuffer.Allocation::free);
        kept.clear();
        keptBytes = 0;
    }
}
