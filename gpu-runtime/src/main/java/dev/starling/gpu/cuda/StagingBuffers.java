package dev.starling.gpu.cuda;

import java.util.ArrayDeque;

/**
 * Pinned staging buffers of one size, kept for reuse up to a count: pinning fresh memory costs
 * about 0.45 s per GB (docs/BENCHMARKS.md), some 30 ms for a pair of 32 MB buffers, which every scan
 * that packed unpinned memory through them paid before.
 */
public final class StagingBuffers implements AutoCloseable {
    /** Bytes of each buffer. */
    public static final int BYTES = 32 << 20;

    private final GpuDevice device;
    private final int keep;
    private final ArrayDeque<PinnedBuffer> kept = new ArrayDeque<>();

    StagingBuffers(GpuDevice device, int keep) {
        this.device = device;
        this.keep = keep;
    }

    /** A buffer of {@link #BYTES}: a kept one, or pinned now. */
    public PinnedBuffer take() {
        synchronized (this) {
            PinnedBuffer b = kept.poll();
            if (b != null) {
                return b;
            }
        }
        return new PinnedBuffer(device, BYTES);
    }

    /** Takes {@code buffer} back (no copy from it may still be in flight), keeping it or freeing it. */
    public void give(PinnedBuffer buffer) {
        synchronized (this) {
            if (kept.size() < keep) {
                kept.push(buffer);
                return;
            }
        }
        buffer.close();
    }

    /** Buffers kept now. */
    public synchronized int kept() {
        return kept.size();
    }

    @Override
    public synchronized void close() {
        for (PinnedBuffer b : kept) {
            b.close();
        }
        kept.clear();
    }
}
