package dev.starling.gpu.append;

import dev.starling.gpu.cuda.GpuDevice;
import java.util.List;

/**
 * Picks how batches of a given size go to the device: the persistent kernel where batches are small
 * enough that a copy call per batch costs more than the kernel's slower zero-copy reads, copies
 * beyond. {@code AppendBenchMain} measured the crossover on the H100 host (docs/BENCHMARKS.md,
 * 2026-12-08) below the smallest batch, 4 KiB: a copy per batch took 10 us there, while the
 * kernel took some 0.9 ms a batch at every size, a fixed cost of its hand-over still to be found.
 * Until it is, every batch goes through copies.
 */
public final class AppendPath {
    /** The largest batch sent through the persistent kernel: none, as measured (see above). */
    public static final long PERSISTENT_UP_TO_BYTES = 0;
    private static final int SLOTS = 4;
    /** A slot holds at least this much, so that small batches rarely wait for one another. */
    private static final long MIN_SLOT_BYTES = 1 << 20;
    private static final long MAX_SLOT_BYTES = 64L << 20;
    /** Blocks of the persistent kernel: enough loads in flight over the link, few SMs held. */
    private static final int PERSISTENT_BLOCKS = 32;

    private AppendPath() { }

    /** Whether batches of {@code batchBytes} go through the persistent kernel. */
    public static boolean persistent(long batchBytes) {
        return batchBytes <= PERSISTENT_UP_TO_BYTES;
    }

    /** An appender for batches of about {@code batchBytes} into {@code targets}. */
    public static DeviceAppender forBatches(GpuDevice device, List<AppendTarget> targets, long batchBytes) {
        long slot = Math.clamp(batchBytes + 64L * targets.size(), MIN_SLOT_BYTES, MAX_SLOT_BYTES);
        return persistent(batchBytes)
                ? new PersistentAppender(device, targets, SLOTS, slot, PERSISTENT_BLOCKS)
                : new CopyAppender(device, targets, SLOTS, slot);
    }
}
