package dev.starling.gpu.pipeline;

import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.KernelStructs;
import dev.starling.storage.Hashing;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * The hash table a kernel probes for a hashed dimension: open addressing with linear probing over
 * 16-byte slots (key, row index; a negative row marks an empty slot), a power-of-two capacity at
 * most half full. A key's home slot is {@link Hashing#homeSlot}, Fibonacci hashing;
 * the kernel computes the same. NULL keys match nothing and are left out. Built in a Java array
 * (uploaded from there) or straight into memory it is given (pinned host memory that the kernel
 * and the CPU workers both probe, {@link #rowOf}).
 */
public final class DimensionHashTable {
    /** Bytes of one slot ({@link KernelStructs#HASH_SLOT}). */
    public static final long SLOT_BYTES = KernelStructs.HASH_SLOT.bytes();
    private static final VarHandle KEY = KernelStructs.HASH_SLOT.arrayField("key");
    private static final VarHandle ROW = KernelStructs.HASH_SLOT.arrayField("row");

    private final MemorySegment slots;
    private final long[] heapSlots;
    private final int shift;

    private DimensionHashTable(MemorySegment slots, long[] heapSlots, int shift) {
        this.slots = slots;
        this.heapSlots = heapSlots;
        this.shift = shift;
    }

    /** The table over the first {@code rows} keys, or empty when a key repeats (a join that would multiply rows). */
    public static Optional<DimensionHashTable> build(Vector keys, int rows) {
        return build(keys, rows, false);
    }

    /**
     * The same; with {@code keysMayRepeat} (a join that only asks whether a key is there), a key
     * that repeats keeps its first row.
     */
    public static Optional<DimensionHashTable> build(Vector keys, int rows, boolean keysMayRepeat) {
        long[] heap = new long[(int) (capacity(rows) * SLOT_BYTES / Long.BYTES)];
        return build(keys, rows, keysMayRepeat, MemorySegment.ofArray(heap), heap);
    }

    /** The same, built in {@code memory} ({@link #bytesFor} bytes). */
    public static Optional<DimensionHashTable> buildIn(Vector keys, int rows, boolean keysMayRepeat, MemorySegment memory) {
        return build(keys, rows, keysMayRepeat, memory, null);
    }

    private static Optional<DimensionHashTable> build(Vector keys, int rows, boolean keysMayRepeat, MemorySegment slots,
                                                      long[] heap) {
        long capacity = capacity(rows);
        int shift = 64 - Long.numberOfTrailingZeros(capacity);
        for (long s = 0; s < capacity; s++) {
            ROW.set(slots, 0L, s, -1L);
        }
        long[] values = keys.longs();
        boolean[] nulls = keys.nulls();
        rows:
        for (int r = 0; r < rows; r++) {
            if (nulls != null && nulls[r]) {
                continue;
            }
            long key = values[r];
            long s = Hashing.homeSlot(key, shift);
            while ((long) ROW.get(slots, 0L, s) >= 0) {
                if ((long) KEY.get(slots, 0L, s) == key) {
                    if (keysMayRepeat) {
                        continue rows;
                    }
                    return Optional.empty();
                }
                s = (s + 1) & (capacity - 1);
            }
            KEY.set(slots, 0L, s, key);
            ROW.set(slots, 0L, s, (long) r);
        }
        return Optional.of(new DimensionHashTable(slots, heap, shift));
    }

    /** The row whose key is {@code key}, or -1: the kernel's probe, on the CPU. */
    public int rowOf(long key) {
        long mask = (1L << (64 - shift)) - 1;
        for (long s = Hashing.homeSlot(key, shift); ; s = (s + 1) & mask) {
            long row = (long) ROW.get(slots, 0L, s);
            if (row < 0 || (long) KEY.get(slots, 0L, s) == key) {
                return (int) row;
            }
        }
    }

    /** Slots of the table over {@code rows} keys: a power of two, at most half full. */
    static long capacity(long rows) {
        return Long.highestOneBit(Math.max(8, rows) * 2 - 1) << 1;
    }

    /** Bytes of the table over {@code rows} keys. */
    public static long bytesFor(long rows) {
        return capacity(rows) * SLOT_BYTES;
    }

    /** The slots as (key, row) pairs of longs, as uploaded: the array a table built on the Java heap lives in. */
    public long[] slots() {
        if (heapSlots == null) {
            throw new IllegalStateException("this table was built in memory it was given, not on the heap");
        }
        return heapSlots;
    }

    public int shift() {
        return shift;
    }
}
