package dev.starling.storage;

import java.util.Arrays;

/** An open-addressing map from long keys to non-negative int values; {@link #get} returns -1 when absent. */
public final class LongIntMap {
    private long[] keys;
    private int[] values; // -1 marks an empty slot
    private int mask;
    private int size;

    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(values, -1);
        mask = cap - 1;
    }

    public static int hash(long key) {
        return Hashing.hash32(key);
    }

    public int get(long key) {
        int i = hash(key) & mask;
        while (true) {
            int v = values[i];
            if (v < 0 || keys[i] == key) {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    /** Sets key to value; returns the previous value or -1. */
    public int put(long key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative value");
        }
        if (size * 2 >= keys.length) {
            grow();
        }
        int i = hash(key) & mask;
        while (true) {
            int v = values[i];
            if (v < 0) {
                keys[i] = key;
                values[i] = value;
                size++;
                return -1;
            }
            if (keys[i] == key) {
                values[i] = value;
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    public int size() {
        return size;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldValues.length * 2];
        Arrays.fill(values, -1);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] >= 0) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }
}
