package dev.starling.gpu.clone;

import dev.starling.gpu.cuda.BankGeometry;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Rewrites a code column so its chunks meet fewer bank and value conflicts in a shared-memory table
 * (Sitaridi and Ross, "Ameliorating Memory Contention of OLAP operators on GPU Processors", DaMoN
 * 2012). Every value starts with one copy, at its own code. Chunk by chunk, the rows (for reads:
 * the distinct values) are first given a copy whose bank is still free in the chunk; each one left
 * then gets the shortest chain of reassignments (breadth-first over banks) that frees a bank for
 * it; where none exists, a new copy is made in a bank the chunk leaves empty, while the table stays
 * within {@code budget} entries per value. New copies go to the bank whose next free entry comes
 * first, so the table grows without holes; each chunk starts enumerating a value's copies at a
 * different one (or, with a window, at the least recently used), so no bank gets crowded. For
 * writes, a copy one of the {@code window} previous chunks used is not used again, if it can be
 * helped: with the budget spent, that rule gives way first, then the bank rule.
 */
public final class CloneLayoutOptimizer {
    private final BankGeometry geometry;
    private final AccessMode mode;
    private final double budget;
    private final int window;

    /** {@code budget}: table entries per original value at most (1: no clones); {@code window}: chunks (writes only). */
    public CloneLayoutOptimizer(BankGeometry geometry, AccessMode mode, double budget, int window) {
        if (budget < 1) {
            throw new IllegalArgumentException("a budget below one copy per value: " + budget);
        }
        this.geometry = geometry;
        this.mode = mode;
        this.budget = budget;
        this.window = mode == AccessMode.WRITE ? window : 0;
    }

    /** The layout of {@code codes}, values in [0, cardinality). */
    public CloneLayout optimize(int[] codes, int cardinality) {
        long start = System.nanoTime();
        State s = new State(cardinality);
        int[] slots = new int[codes.length];
        int chunk = geometry.chunk();
        for (int k = 0, from = 0; from < codes.length; k++, from += chunk) {
            s.chunk(codes, from, Math.min(codes.length, from + chunk), k, slots);
        }
        return new CloneLayout(slots, Arrays.copyOf(s.slotValue, s.size), s.copyCounts(), System.nanoTime() - start);
    }

    /** The growing table and the per-chunk assignment. */
    private final class State {
        private final int banks = geometry.banks();
        private final long maxEntries;
        /** Per value, the slots of its copies. */
        private final int[][] copies;
        private final int[] copyCount;
        /** Per slot, the value it holds (the clone map) and the chunk that last used it. */
        private int[] slotValue;
        private long[] lastUsed;
        /** Per value, its copies from least to most recently used: a list through the slots. */
        private final int[] lruHead;
        private final int[] lruTail;
        private int[] lruNext;
        private int[] lruPrevious;
        private int size;
        /** Per bank, the next entry past the original values that a new copy there would take. */
        private final int[] nextFree;
        // per chunk: items (rows, or distinct values for reads), their values, slots and bank owners
        private final int[] itemValue;
        private final int[] itemSlot;
        private final int[] bankOwner;
        private final int[] parentBank;
        private final int[] parentItem;
        private final int[] parentSlot;
        /** Candidate copies of one value, at most the most copies any value has. */
        private int[] buffer = new int[16];

        State(int cardinality) {
            maxEntries = (long) Math.floor(budget * cardinality);
            copies = new int[cardinality][];
            copyCount = new int[cardinality];
            slotValue = new int[Math.max(16, cardinality)];
            Arrays.fill(slotValue, -1);
            lastUsed = new long[slotValue.length];
            Arrays.fill(lastUsed, Long.MIN_VALUE / 2);
            lruHead = new int[cardinality];
            lruTail = new int[cardinality];
            lruNext = new int[slotValue.length];
            lruPrevious = new int[slotValue.length];
            for (int v = 0; v < cardinality; v++) {
                copies[v] = new int[] {v};
                copyCount[v] = 1;
                slotValue[v] = v;
                lruHead[v] = v;
                lruTail[v] = v;
                lruNext[v] = -1;
                lruPrevious[v] = -1;
            }
            size = cardinality;
            nextFree = new int[banks];
            for (int b = 0; b < banks; b++) {
                int base = cardinality - cardinality % banks;
                nextFree[b] = base + b < cardinality ? base + b + banks : base + b;
            }
            int chunk = geometry.chunk();
            itemValue = new int[chunk];
            itemSlot = new int[chunk];
            bankOwner = new int[banks];
            parentBank = new int[banks];
            parentItem = new int[banks];
            parentSlot = new int[banks];
        }

        void chunk(int[] codes, int from, int to, int k, int[] out) {
            int items = 0;
            int[] itemOfRow = new int[to - from];
            for (int r = from; r < to; r++) {
                int item = -1;
                if (mode == AccessMode.READ) {
                    for (int i = 0; i < items && item < 0; i++) {
                        item = itemValue[i] == codes[r] ? i : -1;
                    }
                }
                if (item < 0) {
                    item = items++;
                    itemValue[item] = codes[r];
                    itemSlot[item] = -1;
                }
                itemOfRow[r - from] = item;
            }
            Arrays.fill(bankOwner, -1);
            for (int i = 0; i < items; i++) {
                int n = candidates(itemValue[i], k, true, buffer);
                for (int c = 0; c < n; c++) {
                    if (bankOwner[buffer[c] % banks] < 0) {
                        take(i, buffer[c]);
                        break;
                    }
                }
            }
            for (int i = 0; i < items; i++) {
                if (itemSlot[i] < 0 && !relocate(i, k, true) && !newCopy(i) && !(window > 0 && relocate(i, k, false))) {
                    // the budget is spent and no chain frees a bank: this row shares one
                    candidates(itemValue[i], k, false, buffer);
                    itemSlot[i] = buffer[0];
                }
            }
            for (int r = from; r < to; r++) {
                int slot = itemSlot[itemOfRow[r - from]];
                out[r] = slot;
                if (lastUsed[slot] != k) {
                    lastUsed[slot] = k;
                    moveToBack(slotValue[slot], slot);
                }
            }
        }

        /** Marks {@code slot} (a copy of v) the most recently used of v's copies. */
        private void moveToBack(int v, int slot) {
            if (lruTail[v] == slot) {
                return;
            }
            int before = lruPrevious[slot];
            int after = lruNext[slot];
            if (before < 0) {
                lruHead[v] = after;
            } else {
                lruNext[before] = after;
            }
            lruPrevious[after] = before;
            append(v, slot);
        }

        private void append(int v, int slot) {
            lruPrevious[slot] = lruTail[v];
            lruNext[slot] = -1;
            lruNext[lruTail[v]] = slot;
            lruTail[v] = slot;
        }

        /**
         * Puts value v's copies into {@code out} in the order a chunk tries them and returns how
         * many: least recently used first under a window (leaving out, when {@code windowed}, those
         * the window used), else starting at a different copy each chunk.
         */
        private int candidates(int v, int k, boolean windowed, int[] out) {
            if (out.length < copyCount[v]) {
                throw new IllegalStateException("candidate buffer too small");
            }
            int m = 0;
            if (window > 0) {
                for (int slot = lruHead[v]; slot >= 0 && (!windowed || lastUsed[slot] < k - window); slot = lruNext[slot]) {
                    out[m++] = slot;
                }
                return m;
            }
            int n = copyCount[v];
            for (int c = 0; c < n; c++) {
                out[m++] = copies[v][(c + k) % n];
            }
            return m;
        }

        private void take(int item, int slot) {
            itemSlot[item] = slot;
            bankOwner[slot % banks] = item;
        }

        /**
         * Breadth-first search over banks for the shortest chain: the item takes a copy in an
         * occupied bank, whose owner moves to another of its copies, and so on until one lands in
         * a free bank. Applies it and returns true when there is one.
         */
        private boolean relocate(int item, int k, boolean windowed) {
            Arrays.fill(parentBank, -2);
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            int first = candidates(itemValue[item], k, windowed, buffer);
            for (int c = 0; c < first; c++) {
                int slot = buffer[c];
                int b = slot % banks;
                if (parentBank[b] == -2) {
                    parentBank[b] = -1;
                    parentItem[b] = item;
                    parentSlot[b] = slot;
                    queue.add(b);
                }
            }
            while (!queue.isEmpty()) {
                int b = queue.poll();
                int owner = bankOwner[b];
                if (owner < 0) {
                    apply(b);
                    return true;
                }
                int n = candidates(itemValue[owner], k, windowed, buffer);
                for (int c = 0; c < n; c++) {
                    int next = buffer[c];
                    int nb = next % banks;
                    if (parentBank[nb] == -2) {
                        parentBank[nb] = b;
                        parentItem[nb] = owner;
                        parentSlot[nb] = next;
                        queue.add(nb);
                    }
                }
            }
            return false;
        }

        /** Moves each item on the chain ending in free bank {@code b} into the copy the search reached its bank through. */
        private void apply(int b) {
            while (b >= 0) {
                int previous = parentBank[b];
                take(parentItem[b], parentSlot[b]);
                b = previous;
            }
        }

        /** A new copy of the item's value in the bank the chunk leaves empty whose next entry comes first, within the budget. */
        private boolean newCopy(int item) {
            int v = itemValue[item];
            int best = -1;
            for (int b = 0; b < banks; b++) {
                if (bankOwner[b] < 0 && nextFree[b] < maxEntries && (best < 0 || better(v, b, best))) {
                    best = b;
                }
            }
            if (best < 0) {
                return false;
            }
            int slot = nextFree[best];
            nextFree[best] += banks;
            if (copyCount[v] == copies[v].length) {
                copies[v] = Arrays.copyOf(copies[v], copies[v].length * 2);
            }
            copies[v][copyCount[v]++] = slot;
            if (buffer.length < copyCount[v]) {
                buffer = new int[buffer.length * 2];
            }
            if (slot >= slotValue.length) {
                int grown = Math.max(slot + 1, slotValue.length * 2);
                int[] values = Arrays.copyOf(slotValue, grown);
                Arrays.fill(values, slotValue.length, grown, -1);
                slotValue = values;
                long[] used = Arrays.copyOf(lastUsed, grown);
                Arrays.fill(used, lastUsed.length, grown, Long.MIN_VALUE / 2);
                lastUsed = used;
                lruNext = Arrays.copyOf(lruNext, grown);
                lruPrevious = Arrays.copyOf(lruPrevious, grown);
            }
            slotValue[slot] = v;
            append(v, slot);
            size = Math.max(size, slot + 1);
            take(item, slot);
            return true;
        }

        /** Bank b before bank c for a new copy of v: one without a copy of v first, then the one whose next entry comes first. */
        private boolean better(int v, int b, int c) {
            boolean freshB = !hasCopyIn(v, b);
            boolean freshC = !hasCopyIn(v, c);
            return freshB != freshC ? freshB : nextFree[b] < nextFree[c];
        }

        private boolean hasCopyIn(int v, int b) {
            for (int c = 0; c < copyCount[v]; c++) {
                if (copies[v][c] % banks == b) {
                    return true;
                }
            }
            return false;
        }

        int[] copyCounts() {
            return copyCount.clone();
        }
    }
}
