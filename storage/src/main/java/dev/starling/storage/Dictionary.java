package dev.starling.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The distinct strings of a VARCHAR column, held off-heap as UTF-8 bytes with a long offset per
 * entry. A column stores the code (index) of each value; codes are stable when a table grows, so
 * a dictionary only ever appends.
 */
public final class Dictionary {
    private final MemorySegment bytes;
    private final MemorySegment offsets; // size() + 1 longs
    private final int size;

    public Dictionary(MemorySegment bytes, MemorySegment offsets, int size) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.size = size;
    }

    public static final Dictionary EMPTY = of(new String[0]);

    public static Dictionary of(String[] values) {
        byte[][] encoded = new byte[values.length][];
        long total = 0;
        for (int i = 0; i < values.length; i++) {
            encoded[i] = values[i].getBytes(StandardCharsets.UTF_8);
            total += encoded[i].length;
        }
        Arena arena = Arena.ofAuto();
        MemorySegment data = arena.allocate(Math.max(1, total));
        MemorySegment offs = arena.allocate(8L * (values.length + 1), 8);
        long at = 0;
        for (int i = 0; i < values.length; i++) {
            offs.setAtIndex(ValueLayout.JAVA_LONG, i, at);
            MemorySegment.copy(encoded[i], 0, data, ValueLayout.JAVA_BYTE, at, encoded[i].length);
            at += encoded[i].length;
        }
        offs.setAtIndex(ValueLayout.JAVA_LONG, values.length, at);
        return new Dictionary(data, offs, values.length);
    }

    public int size() {
        return size;
    }

    public String get(int code) {
        long start = offsets.getAtIndex(ValueLayout.JAVA_LONG, code);
        long end = offsets.getAtIndex(ValueLayout.JAVA_LONG, code + 1);
        byte[] b = new byte[(int) (end - start)];
        MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, start, b, 0, b.length);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** All entries decoded; for predicate evaluation over the dictionary and for appends. */
    public String[] toArray() {
        String[] out = new String[size];
        for (int i = 0; i < size; i++) {
            out[i] = get(i);
        }
        return out;
    }

    public MemorySegment bytes() {
        return bytes;
    }

    public MemorySegment offsets() {
        return offsets;
    }

    public long byteSize() {
        return offsets.getAtIndex(ValueLayout.JAVA_LONG, size);
    }
}
