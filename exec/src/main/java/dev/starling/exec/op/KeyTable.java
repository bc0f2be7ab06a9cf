package dev.starling.exec.op;

import java.util.Arrays;

/**
 * Open-addressing table from composite long keys to dense ids 0, 1, 2, ... in insertion order
 * (group ids of an aggregation, distinct key ids of a join build). Keys are stored row-major.
 */
final class KeyTable {
    private final int width;
    private long[] keys;
    private int[] hashes;
    private int[] slots;
    private int mask;
    private int size;

    KeyTable(int width, int expected) {
        this.width = width;
        int cap = Integer.highestOneBit(Math.max(16, expected) * 2 - 1) << 1;
        slots = new int[cap];
        Arrays.fill(slots, -1);
        mask = cap - 1;
        keys = new long[Math.max(1, Math.max(16, expected) * width)];
        hashes = new int[Math.max(16, expected)];
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
            int id = slots[s];
            if (id < 0) {
                return insert(cols, row, hash, s);
            }
            if (hashes[id] == hash && equal(id, cols, row)) {
                return id;
            }
            s = (s + 1) & mask;
        }
    }

    /** The id of row {@code row}'s key, or -1. */
    int find(long[][] cols, int row, int hash) {
        int s = hash & mask;
        while (true) {
            int id = slots[s];
            if (id < 0 || (hashes[id] == hash && equal(id, cols, row))) {
                return id;
            }
            s = (s + 1) & mask;
        }
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
        if (id == hashes.length) {
            hashes = Arrays.copyOf(hashes, id * 2);
            keys = Arrays.copyOf(keys, id * 2 * width);
        }
        hashes[id] = hash;
        for (int k = 0; k < width; k++) {
            keys[id * width + k] = cols[k][row];
        }
        slots[slot] = id;
        if (size * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        Arrays.fill(slots, -1);
        mask = slots.length - 1;
        for (int id = 0; id < size; id++) {
            int s = hashes[id] & mask;
            while (slots[s] >= 0) {
                s = (s + 1) & mask;
            }
            slots[s] = id;
        }
    }
}
