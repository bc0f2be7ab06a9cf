package dev.starling.storage.gen;

import java.util.SplittableRandom;

/**
 * The items of a generated table (rows, or orders of several rows) in fixed blocks, each drawing
 * from its own seeded random stream: the data is the same however the blocks are grouped into
 * parts, so it depends only on the scale factor.
 */
final class SeededBlocks {
    private static final int BLOCK_ITEMS = 1000;

    private final long seed;
    private final long items;

    /** What is done with item {@code index} (0-based), drawing values from {@code random}. */
    @FunctionalInterface
    interface ItemAction {
        void accept(long index, SplittableRandom random);
    }

    SeededBlocks(long seed, long items) {
        this.seed = seed;
        this.items = items;
    }

    /** Runs {@code action} on the items of part {@code part} of {@code parts}, in order. */
    void forEach(int part, int parts, ItemAction action) {
        long blocks = Math.ceilDiv(items, BLOCK_ITEMS);
        for (long block = blocks * part / parts, end = blocks * (part + 1) / parts; block < end; block++) {
            SplittableRandom random = stream(seed, block);
            long last = Math.min(items, (block + 1) * BLOCK_ITEMS);
            for (long i = block * BLOCK_ITEMS; i < last; i++) {
                action.accept(i, random);
            }
        }
    }

    /** Random stream number {@code index} of {@code seed}; the seed is hashed so neighbouring streams do not overlap. */
    static SplittableRandom stream(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index;
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return new SplittableRandom(z ^ (z >>> 33));
    }
}
