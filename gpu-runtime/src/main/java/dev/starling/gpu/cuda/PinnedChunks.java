package dev.starling.gpu.cuda;

import java.util.ArrayDeque;

/**
 * Pinned host memory for the host parts of mapped ranges (hybrid tables, spilled partitions), in
 * chunks made through CUDA virtual memory management and kept for reuse up to a cap: pinning
 * fresh memory runs at a few GB/s, so a join that spills 700 MB paid over 100 ms for it on every
 * query (docs/BENCHMARKS.md). Chunks are mapped into each range one after another.
 */
public final class PinnedChunks implements AutoCloseable {
    private static final long CHUNK_BYTES = 32 << 20;

    private final long keepBytes;
    private final ArrayDeque<Long> kept = new ArrayDeque<>();
    private long chunkBytes;

    /** A pool that keeps at most {@code keepBytes} of returned chunks. */
    PinnedChunks(long keepBytes) {
        this.keepBytes = keepBytes;
    }

    /** Bytes of each chunk: 32 MB rounded up to the driver's host allocation granularity. */
    public synchronized long chunkBytes() {
        if (chunkBytes == 0) {
            long grain = VirtualMemory.granularity(VirtualMemory.ON_HOST, 0);
            chunkBytes = (CHUNK_BYTES + grain - 1) / grain * grain;
        }
        return chunkBytes;
    }

    /** {@code n} chunks' handles: kept ones first, new ones for the rest. */
    public synchronized long[] take(int n) {
        long bytes = chunkBytes();
        long[] out = new long[n];
        int i = 0;
        try {
            for (; i < n; i++) {
                Long h = kept.poll();
                out[i] = h != null ? h : VirtualMemory.create(bytes, VirtualMemory.ON_HOST, 0);
            }
            return out;
        } catch (RuntimeException e) {
            give(java.util.Arrays.copyOf(out, i));
            throw e;
        }
    }

    /** Returns chunks taken from {@link #take}: kept up to the cap, released past it. */
    public synchronized void give(long[] handles) {
        for (long h : handles) {
            if ((kept.size() + 1) * chunkBytes <= keepBytes) {
                kept.push(h);
            } else {
                VirtualMemory.release(h);
            }
        }
    }

    /** Bytes of chunks kept for reuse. */
    public synchronized long keptBytes() {
        return kept.size() * chunkBytes;
    }

    @Override
    public synchronized void close() {
        while (!kept.isEmpty()) {
            VirtualMemory.release(kept.pop());
        }
    }
}
