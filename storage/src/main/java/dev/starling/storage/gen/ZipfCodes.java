package dev.starling.storage.gen;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Codes 0..cardinality-1 drawn from a Zipf distribution with exponent {@code theta} (0: uniform,
 * 2: a few values take most rows): the synthetic skewed columns of the clone-layout, hybrid and
 * partitioned join experiments.
 */
public final class ZipfCodes {
    /** Draws taken in sequence, then looked up in parallel, at a time. */
    private static final int BLOCK = 1 << 20;

    /** Which code has which popularity rank. */
    public enum Ranks {
        /**
         * Code r has rank r, so the most popular values are neighbours and share few banks: the
         * set-up of "Ameliorating Memory Contention of OLAP operators on GPU Processors"
         * (Sitaridi and Ross), Table 1.
         */
        ORDERED,
        /** Ranks shuffled over the codes, so popular values do not sit next to each other. */
        SHUFFLED
    }

    private ZipfCodes() { }

    public static int[] generate(int rows, int cardinality, double theta, long seed, Ranks ranks) {
        double[] cumulative = new double[cardinality];
        double total = 0;
        for (int r = 0; r < cardinality; r++) {
            total += 1 / Math.pow(r + 1, theta);
            cumulative[r] = total;
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] codeOfRank = new int[cardinality];
        for (int r = 0; r < cardinality; r++) {
            codeOfRank[r] = r;
        }
        for (int r = cardinality - 1; ranks == Ranks.SHUFFLED && r > 0; r--) {
            int other = random.nextInt(r + 1);
            int t = codeOfRank[r];
            codeOfRank[r] = codeOfRank[other];
            codeOfRank[other] = t;
        }
        int[] out = new int[rows];
        double[] draws = new double[Math.min(rows, BLOCK)];
        for (int from = 0; from < rows; from += BLOCK) {
            int n = Math.min(BLOCK, rows - from);
            for (int i = 0; i < n; i++) {
                draws[i] = random.nextDouble() * total;
            }
            // the draws stay in sequence; the searches (a cache miss per step over a large table) run in parallel
            int base = from;
            IntStream.range(0, n).parallel().forEach(i -> {
                int rank = Arrays.binarySearch(cumulative, draws[i]);
                out[base + i] = codeOfRank[Math.min(cardinality - 1, rank >= 0 ? rank : -rank - 1)];
            });
        }
        return out;
    }
}
