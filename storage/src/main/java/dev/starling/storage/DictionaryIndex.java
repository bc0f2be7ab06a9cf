package dev.starling.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where each entry of a {@link Dictionary} lies, by the hash of its UTF-8 bytes: an open-addressing
 * table from hash to code, so that an append to a VARCHAR column finds the codes of the strings it
 * writes without decoding the entries before it. The versions of a column share one index along
 * their line: the version that extends the newest one indexed adds its own entries to it, and an
 * older version, reading an index that holds a later one's entries too, ignores codes past its own
 * size. A second extension of a version already extended gets an index of its own when it needs one.
 * One thread adds at a time; any number read meanwhile.
 */
final class DictionaryIndex {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    /** Per slot: the entry's hash in the high 32 bits, its code + 1 in the low ones; 0 when empty. */
    private volatile long[] slots;
    /** Entries added so far; only the adding thread reads it. */
    private int entries;
    /** The version whose entries, and no others, the index holds. */
    private final AtomicReference<Dictionary> newest;

    private DictionaryIndex(Dictionary d) {
        this.slots = new long[capacity(d.size())];
        this.newest = new AtomicReference<>(d);
        add(d, 0);
    }

    /** The index of {@code d}'s entries. */
    static DictionaryIndex of(Dictionary d) {
        return new DictionaryIndex(d);
    }

    /** The hash of bytes {@code from} to {@code to} of {@code bytes}: the same for an entry and for a string's encoding. */
    static int hash(MemorySegment bytes, long from, long to) {
        int h = 0x811C9DC5;
        for (long i = from; i < to; i++) {
            h = (h ^ bytes.get(ValueLayout.JAVA_BYTE, i)) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    /** The code of the entry of {@code in} whose bytes are {@code utf8} (hashed {@code hash}), or -1. */
    int find(Dictionary in, byte[] utf8, int hash) {
        long[] s = slots;
        int mask = s.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            long e = (long) SLOT.getAcquire(s, i);
            if (e == 0) {
                return -1;
            }
            int code = (int) e - 1;
            if ((int) (e >>> 32) == hash && code < in.size() && in.holdsAt(code, utf8)) {
                return code;
            }
        }
    }

    /**
     * Adds the entries of {@code extended}, which appends to {@code base}, from code
     * {@code base.size()} on, if {@code base} is the newest version indexed; false (and nothing
     * added) when another version extended it first.
     */
    boolean extend(Dictionary base, Dictionary extended) {
        if (!newest.compareAndSet(base, extended)) {
            return false;
        }
        synchronized (this) {
            add(extended, base.size());
        }
        return true;
    }

    private void add(Dictionary d, int from) {
        for (int code = from; code < d.size(); code++) {
            if (2L * (entries + 1) > slots.length) {
                grow();
            }
            put(slots, d.hashAt(code), code);
            entries++;
        }
    }

    private static void put(long[] s, int hash, int code) {
        int mask = s.length - 1;
        int i = hash & mask;
        while ((long) SLOT.getAcquire(s, i) != 0) {
            i = (i + 1) & mask;
        }
        SLOT.setRelease(s, i, ((long) hash << 32) | (code + 1L));
    }

    /** Readers keep the table they started with, which holds every entry they can ask for. */
    private void grow() {
        long[] old = slots;
        long[] bigger = new long[old.length * 2];
        for (long e : old) {
            if (e != 0) {
                put(bigger, (int) (e >>> 32), (int) e - 1);
            }
        }
        slots = bigger;
    }

    /** Slots for {@code entries} entries: a power of two at least twice as many. */
    private static int capacity(int entries) {
        return Integer.highestOneBit(Math.max(8, entries) * 2 - 1) << 1;
    }
}
