package dev.starling.gpu.append;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * The batches on their way to the device: {@code slots} slots of pinned host memory mapped into the
 * device's address space, each holding one batch's column values and NULL flags, and the control
 * words that the host and the persistent append kernel exchange through the same memory (the layout
 * is written out in {@code append.cu}): a batch's descriptor (its first row, its rows, where each
 * column starts in the slot), the count of batches published, a stop flag and, per slot, the last
 * batch that landed from it. Where a batch's columns lie in its slot is {@link SlotLayout}'s.
 */
final class AppendRing implements AutoCloseable {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final List<AppendTarget> targets;
    private final int slots;
    private final SlotLayout layout;
    private final long slotBytes;
    private final MappedHostBuffer control;
    private final MappedHostBuffer ring;

    AppendRing(GpuDevice device, List<AppendTarget> targets, int slots, long slotBytes) {
        this.targets = List.copyOf(targets);
        this.slots = slots;
        int[] widths = new int[targets.size()];
        boolean[] nulls = new boolean[targets.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = targets.get(c).width();
            nulls[c] = targets.get(c).nulls() != null;
        }
        this.layout = new SlotLayout(widths, nulls, slotBytes);
        this.slotBytes = layout.slotBytes();
        this.control = device.mappedHost(8L * (2 + slots + (long) slots * descriptorWords()));
        try {
            this.ring = device.mappedHost(this.slotBytes * slots);
        } catch (RuntimeException e) {
            control.close();
            throw e;
        }
        control.segment().fill((byte) 0);
        // every slot "landed" its batch -1: free to fill
        for (int s = 0; s < slots; s++) {
            control.segment().setAtIndex(ValueLayout.JAVA_LONG, 2 + s, -1);
        }
    }

    private int descriptorWords() {
        return 2 + 2 * targets.size();
    }

    int slots() {
        return slots;
    }

    /** The most rows one batch can carry. */
    long rowsPerSlot() {
        return layout.rowsPerSlot();
    }

    /**
     * Fills slot {@code slot} with rows {@code from} to {@code from + rows} of {@code source}, to be
     * written at row {@code firstRow} of the targets, and writes its descriptor. Returns each
     * column's values offset in the slot, then each column's NULL flags offset (-1 for none).
     */
    long[] fill(int slot, long firstRow, long from, long rows, RowSource source) {
        int columns = targets.size();
        long slotStart = (long) slot * slotBytes;
        long[] values = new long[columns];
        long[] nullFlags = new long[columns];
        for (int c = 0; c < columns; c++) {
            AppendTarget t = targets.get(c);
            values[c] = t.values().address() + firstRow * t.width();
            nullFlags[c] = t.nulls() == null ? 0 : t.nulls().address() + firstRow;
        }
        long[] offsets = layout.offsets(ring.address() + slotStart, rows, values, nullFlags);
        for (int c = 0; c < columns; c++) {
            AppendTarget t = targets.get(c);
            long nulls = offsets[columns + c];
            source.write(c, from, rows, ring.segment().asSlice(slotStart + offsets[c], rows * t.width()),
                    nulls < 0 ? null : ring.segment().asSlice(slotStart + nulls, rows));
        }
        MemorySegment words = control.segment();
        long d = 2 + slots + (long) slot * descriptorWords();
        words.setAtIndex(ValueLayout.JAVA_LONG, d, firstRow);
        words.setAtIndex(ValueLayout.JAVA_LONG, d + 1, rows);
        for (int i = 0; i < offsets.length; i++) {
            words.setAtIndex(ValueLayout.JAVA_LONG, d + 2 + i, offsets[i]);
        }
        return offsets;
    }

    /** Tells the kernel that batches up to {@code count - 1} are filled: the descriptors written before it are seen first. */
    void publish(long count) {
        WORD.setRelease(control.segment(), 0L, count);
    }

    /** Asks the kernel to end once it has no batch left to take. */
    void stop(boolean stop) {
        WORD.setRelease(control.segment(), 8L, stop ? 1L : 0L);
    }

    /** The last batch that slot {@code slot} carried to the device (-1 for none). */
    long landed(int slot) {
        return (long) WORD.getAcquire(control.segment(), 8L * (2 + slot));
    }

    /** Marks slot {@code slot}'s batch {@code batch} as landed (when something other than the kernel moved it). */
    void landedBy(int slot, long batch) {
        WORD.setRelease(control.segment(), 8L * (2 + slot), batch);
    }

    MappedHostBuffer control() {
        return control;
    }

    MappedHostBuffer ring() {
        return ring;
    }

    long slotBytes() {
        return slotBytes;
    }

    @Override
    public void close() {
        ring.close();
        control.close();
    }
}
