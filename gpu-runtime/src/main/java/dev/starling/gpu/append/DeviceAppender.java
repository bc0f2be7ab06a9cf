package dev.starling.gpu.append;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import java.util.List;

/**
 * Appends rows from the host to device columns, batch by batch through a ring of mapped pinned
 * slots ({@link AppendRing}): a batch is copied into a free slot and handed to the device, which
 * moves it while the host fills the next. How the device takes a batch is the subclass's: a copy
 * call per column and batch ({@link CopyAppender}, the copy-per-batch flow XeFlow sets out from) or
 * one kernel that takes every batch ({@link PersistentAppender}). Not thread-safe: one appending
 * thread at a time.
 */
public abstract sealed class DeviceAppender implements AutoCloseable permits CopyAppender, PersistentAppender {
    protected final GpuDevice device;
    protected final List<AppendTarget> targets;
    protected final AppendRing ring;
    protected final GpuStream stream;
    /** The batch each slot carried last. */
    private final long[] slotBatch;
    private long batches;
    private boolean closed;

    protected DeviceAppender(GpuDevice device, List<AppendTarget> targets, int slots, long slotBytes) {
        this.device = device;
        this.targets = List.copyOf(targets);
        this.ring = new AppendRing(device, targets, slots, slotBytes);
        try {
            this.stream = new GpuStream(device);
        } catch (RuntimeException e) {
            ring.close();
            throw e;
        }
        this.slotBatch = new long[slots];
        java.util.Arrays.fill(slotBatch, -1);
    }

    /**
     * Queues rows {@code 0} to {@code rows} of {@code source} to land at row {@code firstRow} of the
     * targets, in batches of at most a slot; returns once they are in slots, not on the device
     * ({@link #drain}).
     */
    public final void append(long firstRow, long rows, RowSource source) {
        device.makeCurrent();
        for (AppendTarget t : targets) {
            if (firstRow + rows > t.capacityRows()) {
                throw new IllegalArgumentException("rows " + firstRow + " to " + (firstRow + rows)
                        + " do not fit a target of " + t.capacityRows() + " rows");
            }
        }
        long perSlot = ring.rowsPerSlot();
        for (long done = 0; done < rows; ) {
            long n = Math.min(perSlot, rows - done);
            int slot = (int) (batches % ring.slots());
            if (slotBatch[slot] >= 0) {
                awaitLanded(slot, slotBatch[slot]);
            }
            long[] offsets = ring.fill(slot, firstRow + done, done, n, source);
            submit(slot, batches, firstRow + done, n, offsets);
            slotBatch[slot] = batches;
            batches++;
            done += n;
        }
    }

    /** Waits until every batch appended so far is in the device columns. */
    public final void drain() {
        device.makeCurrent();
        for (int s = 0; s < slotBatch.length; s++) {
            if (slotBatch[s] >= 0) {
                awaitLanded(s, slotBatch[s]);
            }
        }
        drained();
    }

    /** Batches handed to the device so far. */
    public final long batches() {
        return batches;
    }

    /** Hands the batch in {@code slot} to the device. */
    protected abstract void submit(int slot, long batch, long firstRow, long rows, long[] offsets);

    /** Waits until {@code batch}, carried by {@code slot}, is on the device. */
    protected abstract void awaitLanded(int slot, long batch);

    /** Called once every batch has landed. */
    protected void drained() { }

    /** Ends what the device runs for the appends, all appended batches landed first. */
    protected abstract void finish();

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            drain();
        } finally {
            try {
                finish();
            } finally {
                stream.close();
                ring.close();
            }
        }
    }
}
