package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The cut of read-back groups to the first ones in a sort's order: the threshold found a byte at a
 * time from counts of the keys' bytes (here counted as the device's {@code key_bytes} counts them)
 * is the {@code count}-th best key, ties and either direction included, keys spread over the whole
 * 64-bit range or sharing all but their last bytes, the bytes every key shares found without a
 * round of their own; it keeps every group when cutting would not pay or a SUM passed 64 bits.
 */
class GroupOrderTest {
    @Test
    void theThresholdIsTheCountthBestKey() {
        Random random = new Random(3);
        for (int n : new int[] {40, 1_000, 300_000}) {
            for (long count : new long[] {1, 10, 20}) {
                for (boolean descending : new boolean[] {true, false}) {
                    for (long base : new long[] {0, Long.MAX_VALUE / 4 * 3}) {
                        // few distinct values: many ties; extremes of the 64-bit range among them
                        long[] words = random.longs(n, -50, 50).map(w -> w + base).toArray();
                        words[n / 2] = Long.MIN_VALUE;
                        words[n / 3] = Long.MAX_VALUE;
                        GroupOrder order = new GroupOrder(0, descending, count, "x");
                        long[] keys = Arrays.stream(words).map(order::key).sorted().toArray();
                        // cutting a quarter of the groups or more keeps them all
                        long expected = count > n / 4 ? Long.MIN_VALUE : keys[keys.length - (int) count];
                        long threshold = KeyThreshold.of(order.count(), counts(order, words, false));
                        long kept = Arrays.stream(words).filter(w -> order.key(w) >= threshold).count();
                        String label = n + " groups, " + count + (descending ? " DESC" : " ASC") + " from " + base;
                        assertEquals(Arrays.stream(keys).filter(k -> k >= expected).count(), kept, label);
                        if (threshold != Long.MIN_VALUE) {
                            assertEquals(expected, Arrays.stream(words).map(order::key).filter(k -> k >= threshold)
                                    .min().orElseThrow(), label + ": the least key kept is the count-th's");
                        }
                    }
                }
            }
        }
    }

    @Test
    void theBytesAllKeysShareTakeNoRound() {
        // prices in cents far below 2^63: five leading bytes alike, then the keys of rows that failed (0)
        long[] keys = new Random(7).longs(10_000, 0, 1 << 24).map(v -> v ^ Long.MIN_VALUE).toArray();
        long[] withFailed = Arrays.copyOf(keys, keys.length * 2);
        // without the skip 8 rounds; with it the first, one for each of the last three bytes, and one
        // more where the first only parts the keys from those of failed rows
        for (long[] k : List.of(keys, withFailed)) {
            int[] rounds = new int[1];
            long threshold = KeyThreshold.of(10, counts(k, false, rounds));
            long[] sorted = Arrays.stream(k).map(x -> x ^ Long.MIN_VALUE).sorted().toArray();
            assertEquals(sorted[sorted.length - 10], Arrays.stream(sorted).filter(x -> x >= threshold).min().orElseThrow());
            assertEquals(10, Arrays.stream(sorted).filter(x -> x >= threshold).count());
            assertTrue(rounds[0] <= (k == keys ? 4 : 5), rounds[0] + " rounds");
        }
        int[] rounds = new int[1];
        long[] equal = new long[100];
        Arrays.fill(equal, 12345L ^ Long.MIN_VALUE);
        assertEquals(12345L, KeyThreshold.of(10, counts(equal, false, rounds)), "every key alike");
        assertEquals(1, rounds[0]);
    }

    @Test
    void everyGroupIsKeptWhenCuttingWouldNotPayOrASumPassed64Bits() {
        long[] words = new Random(5).longs(1_000).toArray();
        GroupOrder order = new GroupOrder(0, true, 251, "x");
        assertEquals(Long.MIN_VALUE, KeyThreshold.of(order.count(), counts(order, words, false)), "more than a quarter");
        GroupOrder ten = new GroupOrder(0, true, 10, "x");
        assertEquals(Long.MIN_VALUE, KeyThreshold.of(ten.count(), counts(ten, words, true)), "a SUM past 64 bits");
    }

    /** The counts of {@code order}'s key bytes over {@code words}, as the device makes them; {@code overflow}: one SUM passed 64 bits. */
    private static KeyThreshold.ByteCounts counts(GroupOrder order, long[] words, boolean overflow) {
        return counts(Arrays.stream(words).map(w -> order.key(w) ^ Long.MIN_VALUE).toArray(), overflow, new int[1]);
    }

    /** The counts of the bytes of {@code keys} (sign bits flipped), rounds counted at {@code rounds[0]}. */
    private static KeyThreshold.ByteCounts counts(long[] keys, boolean overflow, int[] rounds) {
        return (prefix, mask, shift) -> {
            rounds[0]++;
            long[] bins = new long[256];
            long least = -1;
            long greatest = 0;
            for (long key : keys) {
                if ((key & mask) == prefix) {
                    bins[(int) ((key >>> shift) & 0xff)]++;
                    least = Long.compareUnsigned(key, least) < 0 ? key : least;
                    greatest = Long.compareUnsigned(key, greatest) > 0 ? key : greatest;
                }
            }
            return new KeyThreshold.Counts(bins, least, greatest, overflow ? 1 : 0);
        };
    }
}
