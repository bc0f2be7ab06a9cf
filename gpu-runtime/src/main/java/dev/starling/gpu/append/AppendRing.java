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
 * batch that landed from it. In a slot a column's bytes start at the same address modulo 16 as
 * their destination, so that the kernel copies 16-byte words.
 */
final class AppendRing implements AutoCloseable {
    /** Bytes a column may need in a slot beyond its data: the alignment to its destination's. */
    private static final long PAD = 16;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final List<AppendTarget> targets;
    private final int slots;
    private final long slotBytes;
    private final MappedHostBuffer control;
    private final MappedHostBuffer ring;
    private final long rowBytes;

    AppendRing(GpuDevice device, List<AppendTarget> targets, int slots, long slotBytes) {
        this.targets = List.copyOf(targets);
        this.slots = slots;
        long perRow = 0;
        for (AppendTarget t : targets) {
            perRow += t.width() + (t.nulls() == null ? 0 : 1);
        }
        this.rowBytes = perRow;
        this.slotBytes = Math.max(slotBytes, perRow + 2 * PAD * targets.size()) + 15 & ~15L;
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
        return Math.max(1, (slotBytes - 2 * PAD * targets.size()) / Math.max(1, rowBytes));
    }

    /** Bytes a row takes in a slot: its values and NULL flags. */
    long rowBytes() {
        return rowBytes;
    }

    /**
     * Fills slot {@code slot} with rows {@code from} to {@code from + rows} of {@code source}, to be
     * written at row {@code firstRow} of the targets, and writes its descriptor. Returns each
     * column's values offset in the slot, then each column's NULL flags offset (-1 for none).
     */
    long[] fill(int slot, long firstRow, long from, long rows, RowSource source) {
        int columns = targets.size();
        long[] offsets = new long[2 * columns];
        long slotStart = (long) slot * slotBytes;
        long cursor = 0;
        for (int c = 0; c < columns; c++) {
            AppendTarget t = targets.get(c);
            long values = aligned(cursor, slotStart, t.values().address() + firstRow * t.width());
            cursor = values + rows * t.width();
            long nulls = -1;
            if (t.nulls() != null) {
                nulls = aligned(cursor, slotStart, t.nulls().address() + firstRow);
                cursor = nulls + rows;
            }
            source.write(c, from, rows, ring.segment().asSlice(slotStart + values, rows * t.width()),
                    nulls < 0 ? null : ring.segment().asSlice(slotStart + nulls, rows));
            offsets[c] = values;
            offsets[columns + c] = nulls;
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

    /** The first offset at or after {@code cursor} whose address in the ring matches {@code target}'s modulo 16. */
    private long aligned(long cursor, long slotStart, long target) {
        long address = ring.address() + slotStart + cursor;
        return cursor + ((target - address) & 15);
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
