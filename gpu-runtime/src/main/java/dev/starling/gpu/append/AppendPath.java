package dev.starling.gpu.append;

import dev.starling.gpu.cuda.GpuDevice;
import java.util.List;

/**
 * Picks how batches of a given size go to the device: the persistent kernel where batches are small
 * enough that a copy call per batch costs more than the kernel's slower zero-copy reads, copies
 * beyond. The crossover is an estimate until {@code AppendBenchMain} measures it on the H100 host
 * (docs/GPU.md): a copy call per batch costs some 10 us more than a publish, and the kernel reads
 * the link at 51 GB/s (zero-copy, docs/BENCHMARKS.md) against the copy engines' 54, which puts it
 * at a few MB; with the kernel's 32 blocks reading less than 51 GB/s, it is taken lower.
 */
public final class AppendPath {
    /** The largest batch sent through the persistent kernel (an estimate, see above). */
    public static final long PERSISTENT_UP_TO_BYTES = 1L << 20;
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
