package dev.starling.storage.gen;

import java.util.SplittableRandom;

/**
 * Assigns the values 0..n-1 of a small domain to consecutive rows so that each run of n rows (a
 * cycle) holds every value exactly once: a uniform distribution that small tables follow as
 * closely as their size allows, where independent draws would miss or repeat values. Each cycle
 * lists {@code head} first, then the other values in a seeded random order.
 */
final class BalancedCycle {
    private final int size;
    private final long seed;
    private final int[] head;
    private long cycle = -1;
    private int[] order;

    BalancedCycle(int size, long seed, int... head) {
        this.size = size;
        this.seed = seed;
        this.head = head.clone();
    }

    int valueAt(long row) {
        long c = row / size;
        if (c != cycle) {
            order = order(c);
            cycle = c;
        }
        return order[(int) (row % size)];
    }

    private int[] order(long c) {
        int[] values = new int[size];
        boolean[] inHead = new boolean[size];
        System.arraycopy(head, 0, values, 0, head.length);
        for (int v : head) {
            inHead[v] = true;
        }
        int n = head.length;
        for (int v = 0; v < size; v++) {
            if (!inHead[v]) {
                values[n++] = v;
            }
        }
        SplittableRandom random = SeededBlocks.stream(seed, c);
        for (int i = size - 1; i > head.length; i--) {
            int j = head.length + random.nextInt(i - head.length + 1);
            int t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
        return values;
    }
}
