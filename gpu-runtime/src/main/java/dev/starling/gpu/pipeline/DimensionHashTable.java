package dev.starling.gpu.pipeline;

import dev.starling.exec.vector.Vector;
import java.util.Optional;

/**
 * The hash table a kernel probes for a hashed dimension: open addressing with linear probing over
 * 16-byte slots (key, row index; a negative row marks an empty slot), a power-of-two capacity at
 * most half full. A key's home slot is {@code (key * MULTIPLIER) >>> shift} (Fibonacci hashing);
 * the kernel computes the same. NULL keys match nothing and are left out.
 */
public final class DimensionHashTable {
    public static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private final long[] slots;
    private final int shift;

    private DimensionHashTable(long[] slots, int shift) {
        this.slots = slots;
        this.shift = shift;
    }

    /** The table over the first {@code rows} keys, or empty when a key repeats (a join that would multiply rows). */
    public static Optional<DimensionHashTable> build(Vector keys, int rows) {
        int capacity = (int) capacity(rows);
        int shift = 64 - Integer.numberOfTrailingZeros(capacity);
        long[] slots = new long[capacity * 2];
        for (int s = 0; s < capacity; s++) {
            slots[2 * s + 1] = -1;
        }
        long[] values = keys.longs();
        boolean[] nulls = keys.nulls();
        for (int r = 0; r < rows; r++) {
            if (nulls != null && nulls[r]) {
                continue;
            }
            long key = values[r];
            int s = (int) ((key * MULTIPLIER) >>> shift);
            while (slots[2 * s + 1] >= 0) {
                if (slots[2 * s] == key) {
                    return Optional.empty();
                }
                s = (s + 1) & (capacity - 1);
            }
            slots[2 * s] = key;
            slots[2 * s + 1] = r;
        }
        return Optional.of(new DimensionHashTable(slots, shift));
    }

    /** Slots of the table over {@code rows} keys: a power of two, at most half full. */
    static long capacity(long rows) {
        return Long.highestOneBit(Math.max(8, rows) * 2 - 1) << 1;
    }

    /** Bytes of the table over {@code rows} keys. */
    public static long bytesFor(long rows) {
        return capacity(rows) * 16;
    }

    /** The slots as (key, row) pairs of longs, as uploaded. */
    public long[] slots() {
        return slots;
    }

    public int shift() {
        return shift;
    }
}
