package dev.starling.exec.op;

import java.util.Arrays;

/**
 * Open-addressing table from composite long keys to dense ids 0, 1, 2, ... in insertion order
 * (group ids of an aggregation, distinct key ids of a join build). Keys are stored row-major. A
 * slot holds the key's hash next to its id, so a probe touches the keys only on a hash match: one
 * cache miss per lookup in a large table instead of three.
 */
final class KeyTable {
    private final int width;
    private long[] keys;
    /** Per slot: hash in the high 32 bits, id + 1 in the low ones; 0 when empty. */
    private long[] slots;
    private int mask;
    private int size;

    KeyTable(int width, int expected) {
        this.width = width;
        int cap = capacity(expected);
        slots = new long[cap];
        mask = cap - 1;
        keys = new long[Math.max(1, Math.max(16, expected) * width)];
    }

    /** Slots for {@code expected} keys: the power of two past twice as many, so the table stays at most half full. */
    private static int capacity(long expected) {
        return Integer.highestOneBit((int) Math.min(1 << 29, Math.max(16, expected)) * 2 - 1) << 1;
    }

    /** The bytes a table of {@code keys} keys of {@code width} columns takes: its slots and its keys. */
    static long bytesFor(long keys, int width) {
        return 8L * capacity(keys) + 8L * Math.max(16, keys) * width;
    }

    int size() {
        return size;
    }

    long key(int id, int column) {
        return keys[id * width + column];
    }

    /** The id of row {@code row}'s key in {@code cols}, inserting it when new. */
    int findOrInsert(long[][] cols, int row, int hash) {
        int s = hash & mask;
        while (true) {
            long e = slots[s];
            if (e == 0) {
                return insert(cols, row, hash, s);
            }
            int id = (int) e - 1;
            if ((int) (e >>> 32) == hash && equal(id, cols, row)) {
                return id;
            }
            s = (s + 1) & mask;
        }
    }

    /** The id of row {@code row}'s key, or -1. */
    int find(long[][] cols, int row, int hash) {
        int s = hash & mask;
        while (true) {
            long e = slots[s];
            int id = (int) e - 1;
            if (e == 0 || ((int) (e >>> 32) == hash && equal(id, cols, row))) {
                return id;
            }
            s = (s + 1) & mask;
        }
    }

    /** Whether rows {@code a} and {@code b} of {@code cols} have the same key. */
    static boolean sameKey(long[][] cols, int a, int b) {
        for (long[] col : cols) {
            if (col[a] != col[b]) {
                return false;
            }
        }
        return true;
    }

    private boolean equal(int id, long[][] cols, int row) {
        int base = id * width;
        for (int k = 0; k < width; k++) {
            if (keys[base + k] != cols[k][row]) {
                return false;
            }
        }
        return true;
    }

    private int insert(long[][] cols, int row, int hash, int slot) {
        int id = size++;
        if ((long) size * width > keys.length) {
            keys = Arrays.copyOf(keys, Math.max(keys.length * 2, size * width));
        }
        for (int k = 0; k < width; k++) {
            keys[id * width + k] = cols[k][row];
        }
        slots[slot] = ((long) hash << 32) | (id + 1L);
        if (size * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = slots.length - 1;
        for (long e : old) {
            if (e != 0) {
                int s = (int) (e >>> 32) & mask;
                while (slots[s] != 0) {
                    s = (s + 1) & mask;
                }
                slots[s] = e;
            }
        }
    }
}
