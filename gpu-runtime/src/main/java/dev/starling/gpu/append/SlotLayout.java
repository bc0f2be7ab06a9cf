package dev.starling.gpu.append;

/**
 * Where a batch's columns lie in a slot of the append ring: each column's values, then its NULL
 * flags where it keeps them, one after another, each starting at the same address modulo 16 as
 * the place on the device it goes to, so that the persistent kernel copies 16-byte words. A slot
 * holds at most {@link #rowsPerSlot} rows: the rows' bytes and up to 15 bytes of alignment for each
 * of a column's two runs.
 */
final class SlotLayout {
    /** Bytes a run may need in a slot beyond its data to align it to its destination. */
    private static final long PAD = 16;

    private final int[] widths;
    private final boolean[] nulls;
    private final long slotBytes;
    private final long rowBytes;

    /** Columns of {@code widths} bytes a row, {@code nulls}: which keep NULL flags; slots of at least {@code slotBytes}. */
    SlotLayout(int[] widths, boolean[] nulls, long slotBytes) {
        this.widths = widths.clone();
        this.nulls = nulls.clone();
        long perRow = 0;
        for (int c = 0; c < widths.length; c++) {
            perRow += widths[c] + (nulls[c] ? 1 : 0);
        }
        this.rowBytes = perRow;
        this.slotBytes = Math.max(slotBytes, perRow + 2 * PAD * widths.length) + 15 & ~15L;
    }

    /** A slot's bytes: a multiple of 16, so every slot of a ring starts as aligned as the ring. */
    long slotBytes() {
        return slotBytes;
    }

    /** Bytes a row takes in a slot: its values and NULL flags. */
    long rowBytes() {
        return rowBytes;
    }

    /** The most rows one batch can carry. */
    long rowsPerSlot() {
        return Math.max(1, (slotBytes - 2 * PAD * widths.length) / Math.max(1, rowBytes));
    }

    /**
     * Each column's values offset in the slot at device address {@code slot}, then each column's
     * NULL flags offset (-1 for a column without), for {@code rows} rows going to device addresses
     * {@code values[c]} and {@code nullFlags[c]} (unused for a column without).
     */
    long[] offsets(long slot, long rows, long[] values, long[] nullFlags) {
        int columns = widths.length;
        long[] offsets = new long[2 * columns];
        long cursor = 0;
        for (int c = 0; c < columns; c++) {
            offsets[c] = aligned(cursor, slot, values[c]);
            cursor = offsets[c] + rows * widths[c];
            offsets[columns + c] = -1;
            if (nulls[c]) {
                offsets[columns + c] = aligned(cursor, slot, nullFlags[c]);
                cursor = offsets[columns + c] + rows;
            }
        }
        return offsets;
    }

    /** The first offset at or after {@code cursor} whose address matches {@code target}'s modulo 16. */
    private static long aligned(long cursor, long slot, long target) {
        return cursor + ((target - (slot + cursor)) & 15);
    }
}
