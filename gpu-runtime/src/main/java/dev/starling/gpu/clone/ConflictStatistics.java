package dev.starling.gpu.clone;

import dev.starling.gpu.cuda.BankGeometry;
import java.util.stream.IntStream;

/**
 * How a code column's chunks meet shared memory's banks, averaged over chunks: the distinct banks
 * a chunk touches, its write serialization rounds (the most accesses landing in one bank) and read
 * serialization rounds (the most distinct addresses in one bank), and, with a window of W chunks,
 * its inter-warp value conflicts (the addresses it shares with the W chunks before it, whose atomic
 * updates may still be in flight).
 */
public record ConflictStatistics(long chunks, double distinctBanks, double writeRounds, double readRounds,
                                 double windowConflicts) {
    /** Chunks per parallel task: large enough that splitting pays. */
    private static final int CHUNKS_PER_TASK = 1 << 16;

    /** The statistics of {@code slots} (the shared-memory entry each row accesses) under {@code geometry}, window {@code window}. */
    public static ConflictStatistics of(int[] slots, BankGeometry geometry, int window) {
        int chunk = geometry.chunk();
        long chunks = (slots.length + chunk - 1) / chunk;
        int tasks = (int) Math.max(1, (chunks + CHUNKS_PER_TASK - 1) / CHUNKS_PER_TASK);
        int maxSlot = IntStream.of(slots).parallel().max().orElse(0);
        double[][] sums = IntStream.range(0, tasks).parallel()
                .mapToObj(t -> sum(slots, maxSlot, geometry, window, t * (long) CHUNKS_PER_TASK,
                        Math.min(chunks, (t + 1L) * CHUNKS_PER_TASK)))
                .toArray(double[][]::new);
        double[] total = new double[4];
        for (double[] s : sums) {
            for (int i = 0; i < total.length; i++) {
                total[i] += s[i];
            }
        }
        double n = Math.max(1, chunks);
        return new ConflictStatistics(chunks, total[0] / n, total[1] / n, total[2] / n, total[3] / n);
    }

    /** The sums over chunks [from, to) of the four measures. */
    private static double[] sum(int[] slots, int maxSlot, BankGeometry g, int window, long from, long to) {
        double[] s = new double[4];
        int[] accesses = new int[g.banks()];
        int[] addresses = new int[g.banks()];
        int chunk = g.chunk();
        // the chunk that last accessed each slot; the window's chunks before `from` are replayed uncounted
        long[] lastChunk = new long[maxSlot + 1];
        java.util.Arrays.fill(lastChunk, Long.MIN_VALUE / 2);
        for (long k = Math.max(0, from - window); k < to; k++) {
            int start = (int) (k * chunk);
            int end = Math.min(slots.length, start + chunk);
            java.util.Arrays.fill(accesses, 0);
            java.util.Arrays.fill(addresses, 0);
            int windowConflicts = 0;
            for (int r = start; r < end; r++) {
                int slot = slots[r];
                int b = g.bank(slot);
                accesses[b]++;
                long last = lastChunk[slot];
                if (last != k) {
                    addresses[b]++;
                }
                if (last < k && last >= k - window) {
                    windowConflicts++;
                }
                if (last != k) {
                    lastChunk[slot] = k;
                }
            }
            if (k < from) {
                continue;
            }
            int distinct = 0;
            int write = 0;
            int read = 0;
            for (int b = 0; b < accesses.length; b++) {
                distinct += accesses[b] > 0 ? 1 : 0;
                write = Math.max(write, accesses[b]);
                read = Math.max(read, addresses[b]);
            }
            s[0] += distinct;
            s[1] += write;
            s[2] += read;
            s[3] += windowConflicts;
        }
        return s;
    }
}
