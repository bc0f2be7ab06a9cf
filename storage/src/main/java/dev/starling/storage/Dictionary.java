package dev.starling.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.SoftReference;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The distinct strings of a VARCHAR column, held off-heap as UTF-8 bytes with a long offset per
 * entry. A column stores the code (index) of each value; codes are stable when a table grows, so
 * a dictionary only ever appends ({@link #extend}), and finds a string's code through an index
 * built the first time it is asked and shared with the versions that extend it
 * ({@link DictionaryIndex}). A version made by an append leaves room after its entries, which the
 * first version extending it writes its own into: the versions share their memory, each reading
 * only its own entries, and an append costs in proportion to what it adds.
 */
public final class Dictionary {
    private final MemorySegment bytes;
    private final MemorySegment offsets; // at least size() + 1 longs
    private final int size;
    /** The version whose entries end where the shared memory's written part ends (null: none may write there). */
    private final AtomicReference<Dictionary> last;
    /** Soft: a large column's index is memory the heap may take back, to be built again when asked. */
    private volatile SoftReference<DictionaryIndex> index;

    /** A dictionary over {@code bytes} and {@code offsets} as they are (a stored table's): extended by copying. */
    public Dictionary(MemorySegment bytes, MemorySegment offsets, int size) {
        this(bytes, offsets, size, new AtomicReference<>());
    }

    private Dictionary(MemorySegment bytes, MemorySegment offsets, int size, AtomicReference<Dictionary> last) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.size = size;
        this.last = last;
    }

    /** No entries: what {@link #of} extends (an own instance, so that no index is shared through it). */
    private static final Dictionary EMPTY_BYTES = empty();

    public static final Dictionary EMPTY = of(new String[0]);

    public static Dictionary of(String[] values) {
        return values.length == 0 ? empty() : EMPTY_BYTES.extend(Arrays.asList(values));
    }

    private static Dictionary empty() {
        return new Dictionary(Arena.ofAuto().allocate(1), Arena.ofAuto().allocate(8, 8), 0);
    }

    /**
     * This dictionary's entries followed by {@code added} (none of them among its entries), only
     * the added strings encoded: written after this version's entries where it was the last to
     * write in the memory it shares and that has room, else into memory of its own with the
     * entries before copied as they are (and, past a first version, room for an eighth more).
     * The version extended first shares this one's index.
     */
    public Dictionary extend(List<String> added) {
        if (added.isEmpty()) {
            return this;
        }
        byte[][] encoded = new byte[added.size()][];
        long before = byteSize();
        long total = before;
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = added.get(i).getBytes(StandardCharsets.UTF_8);
            total += encoded[i].length;
        }
        int entries = size + encoded.length;
        Dictionary extended = null;
        if (bytes.byteSize() >= total && offsets.byteSize() >= 8L * (entries + 1)) {
            Dictionary inPlace = new Dictionary(bytes, offsets, entries, last);
            if (last.compareAndSet(this, inPlace)) {
                extended = inPlace;
            }
        }
        if (extended == null) {
            // the room left after a table's first version is what its appends will need: none for most
            long room = size == 0 ? 0 : Math.max(total - before, before / 8);
            long roomEntries = size == 0 ? 0 : Math.max(encoded.length, size / 8);
            Arena arena = Arena.ofAuto();
            extended = new Dictionary(arena.allocate(Math.max(1, total + room)),
                    arena.allocate(8L * (entries + 1 + roomEntries), 8), entries, new AtomicReference<>());
            extended.last.set(extended);
            MemorySegment.copy(bytes, 0, extended.bytes, 0, before);
            MemorySegment.copy(offsets, 0, extended.offsets, 0, 8L * size);
        }
        long at = before;
        for (int i = 0; i < encoded.length; i++) {
            extended.offsets.setAtIndex(ValueLayout.JAVA_LONG, size + i, at);
            MemorySegment.copy(encoded[i], 0, extended.bytes, ValueLayout.JAVA_BYTE, at, encoded[i].length);
            at += encoded[i].length;
        }
        extended.offsets.setAtIndex(ValueLayout.JAVA_LONG, entries, at);
        SoftReference<DictionaryIndex> held = index;
        DictionaryIndex shared = held == null ? null : held.get();
        if (shared != null && shared.extend(this, extended)) {
            extended.index = new SoftReference<>(shared);
        }
        return extended;
    }

    /** The code of {@code value}, or -1 when it is not an entry. */
    public int codeOf(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return index().find(this, utf8, DictionaryIndex.hash(MemorySegment.ofArray(utf8), 0, utf8.length));
    }

    private DictionaryIndex index() {
        SoftReference<DictionaryIndex> held = index;
        DictionaryIndex i = held == null ? null : held.get();
        if (i == null) {
            synchronized (this) {
                held = index;
                i = held == null ? null : held.get();
                if (i == null) {
                    i = DictionaryIndex.of(this);
                    index = new SoftReference<>(i);
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
