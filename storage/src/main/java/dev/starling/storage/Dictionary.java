package dev.starling.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The distinct strings of a VARCHAR column, held off-heap as UTF-8 bytes with a long offset per
 * entry. A column stores the code (index) of each value; codes are stable when a table grows, so
 * a dictionary only ever appends ({@link #extend}), and finds a string's code through an index
 * built the first time it is asked and shared with the versions that extend it
 * ({@link DictionaryIndex}).
 */
public final class Dictionary {
    private final MemorySegment bytes;
    private final MemorySegment offsets; // size() + 1 longs
    private final int size;
    /** Soft: a large column's index is memory the heap may take back, to be built again when asked. */
    private volatile java.lang.ref.SoftReference<DictionaryIndex> index;

    public Dictionary(MemorySegment bytes, MemorySegment offsets, int size) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.size = size;
    }

    /** No entries: what {@link #of} extends (an own instance, so that no index is shared through it). */
    private static final Dictionary EMPTY_BYTES = new Dictionary(Arena.ofAuto().allocate(1),
            Arena.ofAuto().allocate(8, 8), 0);

    public static final Dictionary EMPTY = of(new String[0]);

    public static Dictionary of(String[] values) {
        return EMPTY_BYTES.extend(java.util.Arrays.asList(values));
    }

    /**
     * This dictionary's entries followed by {@code added} (none of them among its entries): the
     * bytes before are copied as they are, only the added strings encoded. The version extended
     * first shares this one's index.
     */
    public Dictionary extend(java.util.List<String> added) {
        byte[][] encoded = new byte[added.size()][];
        long before = byteSize();
        long total = before;
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = added.get(i).getBytes(StandardCharsets.UTF_8);
            total += encoded[i].length;
        }
        int entries = size + encoded.length;
        Arena arena = Arena.ofAuto();
        MemorySegment data = arena.allocate(Math.max(1, total));
        MemorySegment offs = arena.allocate(8L * (entries + 1), 8);
        MemorySegment.copy(bytes, 0, data, 0, before);
        MemorySegment.copy(offsets, 0, offs, 0, 8L * size);
        long at = before;
        for (int i = 0; i < encoded.length; i++) {
            offs.setAtIndex(ValueLayout.JAVA_LONG, size + i, at);
            MemorySegment.copy(encoded[i], 0, data, ValueLayout.JAVA_BYTE, at, encoded[i].length);
            at += encoded[i].length;
        }
        offs.setAtIndex(ValueLayout.JAVA_LONG, entries, at);
        Dictionary extended = new Dictionary(data, offs, entries);
        java.lang.ref.SoftReference<DictionaryIndex> held = index;
        DictionaryIndex shared = held == null ? null : held.get();
        if (shared != null && shared.extend(this, extended)) {
            extended.index = new java.lang.ref.SoftReference<>(shared);
        }
        return extended;
    }

    /** The code of {@code value}, or -1 when it is not an entry. */
    public int codeOf(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return index().find(this, utf8, DictionaryIndex.hash(MemorySegment.ofArray(utf8), 0, utf8.length));
    }

    private DictionaryIndex index() {
        java.lang.ref.SoftReference<DictionaryIndex> held = index;
        DictionaryIndex i = held == null ? null : held.get();
        if (i == null) {
            synchronized (this) {
                held = index;
                i = held == null ? null : held.get();
                if (i == null) {
                    i = DictionaryIndex.of(this);
                    index = new java.lang.ref.SoftReference<>(i);
                }
            }
        }
        return i;
    }

    /** The hash of entry {@code code}'s bytes, as {@link DictionaryIndex} files it. */
    int hashAt(int code) {
        return DictionaryIndex.hash(bytes, offsets.getAtIndex(ValueLayout.JAVA_LONG, code),
                offsets.getAtIndex(ValueLayout.JAVA_LONG, code + 1));
    }

    /** Whether entry {@code code}'s bytes are {@code utf8}. */
    boolean holdsAt(int code, byte[] utf8) {
        long start = offsets.getAtIndex(ValueLayout.JAVA_LONG, code);
        long end = offsets.getAtIndex(ValueLayout.JAVA_LONG, code + 1);
        return end - start == utf8.length
                && MemorySegment.mismatch(bytes, start, end, MemorySegment.ofArray(utf8), 0, utf8.length) < 0;
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
