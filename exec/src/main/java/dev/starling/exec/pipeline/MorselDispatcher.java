package dev.starling.exec.pipeline;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The read cursor over a fact table's chunks that the CPU workers and an accelerator share when
 * they run one pipeline together (morsel-driven co-processing, Lutz's thesis' §3.5.1): a CPU worker
 * claims one chunk at a time, the accelerator a batch of consecutive chunks, so that it pays its
 * launch latency once per batch. A batch is at most a quarter of the chunks left, so that near the
 * end the accelerator does not hold the tail while the CPU workers have nothing left to claim.
 */
public final class MorselDispatcher {
    private final int chunks;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger byAccelerator = new AtomicInteger();
    private volatile boolean closed;

    public MorselDispatcher(int chunks) {
        this.chunks = chunks;
    }

    /** The next chunk for a CPU worker, or -1 when none is left. */
    public int claim() {
        if (closed) {
            return -1;
        }
        int c = next.getAndIncrement();
        return c < chunks ? c : -1;
    }

    /** The accelerator's next chunks, {@code [from, to)}, at most {@code most} of them; null when none is left. */
    public int[] claimBatch(int most) {
        while (!closed) {
            int from = next.get();
            if (from >= chunks) {
                return null;
            }
            int n = Math.max(1, Math.min(most, (chunks - from) / 4));
            if (next.compareAndSet(from, from + n)) {
                byAccelerator.addAndGet(n);
                return new int[] {from, from + n};
            }
        }
        return null;
    }

    /** Hands out nothing more (the run failed or was cancelled). */
    public void close() {
        closed = true;
    }

    public int chunks() {
        return chunks;
    }

    /** How many chunks the accelerator has claimed. */
    public int acceleratorChunks() {
        return byAccelerator.get();
    }
}
