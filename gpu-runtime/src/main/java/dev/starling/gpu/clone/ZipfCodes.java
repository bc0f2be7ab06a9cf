package dev.starling.gpu.clone;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Codes 0..cardinality-1 drawn from a Zipf distribution with exponent {@code theta} (0: uniform,
 * 2: a few values take most rows), the ranks shuffled over the codes so popular values do not sit
 * next to each other: the synthetic fact columns of the clone-layout experiments.
 */
public final class ZipfCodes {
    private ZipfCodes() { }

    public static int[] generate(int rows, int cardinality, double theta, long seed) {
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
        for (int r = cardinality - 1; r > 0; r--) {
            int other = random.nextInt(r + 1);
            int t = codeOfRank[r];
            codeOfRank[r] = codeOfRank[other];
            codeOfRank[other] = t;
        }
        int[] out = new int[rows];
        for (int i = 0; i < rows; i++) {
            int rank = Arrays.binarySearch(cumulative, random.nextDouble() * total);
            out[i] = codeOfRank[Math.min(cardinality - 1, rank >= 0 ? rank : -rank - 1)];
        }
        return out;
    }
}
