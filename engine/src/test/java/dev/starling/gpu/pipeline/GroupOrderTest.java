package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The cut of read-back groups to the first ones in a sort's order: the threshold is the
 * {@code count}-th best key, whichever slice of a parallel read-back the groups fall in, ties and
 * either direction included; it keeps every group when cutting would not pay.
 */
class GroupOrderTest {
    @Test
    void theThresholdIsTheCountthBestKey() {
        Random random = new Random(3);
        for (int n : new int[] {40, 1_000, 300_000}) {
            for (long count : new long[] {1, 10, 20}) {
                for (boolean descending : new boolean[] {true, false}) {
                    // few distinct values: many ties; extremes of the 64-bit range among them
                    long[] words = random.longs(n, -50, 50).toArray();
                    words[n / 2] = Long.MIN_VALUE;
                    words[n / 3] = Long.MAX_VALUE;
                    GroupOrder order = new GroupOrder(0, descending, count, "x");
                    long[] keys = Arrays.stream(words).map(order::key).sorted().toArray();
                    // cutting a quarter of the groups or more keeps them all
                    long expected = count > n / 4 ? Long.MIN_VALUE : keys[keys.length - (int) count];
                    long threshold = order.threshold(words);
                    assertEquals(expected, threshold, n + " groups, " + count + (descending ? " DESC" : " ASC"));
                    long kept = Arrays.stream(words).filter(w -> order.key(w) >= threshold).count();
                    assertEquals(Arrays.stream(keys).filter(k -> k >= expected).count(), kept);
                }
            }
        }
    }

    @Test
    void everyGroupIsKeptWhenCuttingWouldNotPay() {
        long[] words = new Random(5).longs(1_000).toArray();
        assertEquals(Long.MIN_VALUE, new GroupOrder(0, true, 251, "x").threshold(words), "more than a quarter");
        assertEquals(Long.MIN_VALUE, new GroupOrder(0, true, GroupOrder.MOST_KEPT + 1, "x")
                .threshold(new long[(int) GroupOrder.MOST_KEPT * 8]), "past the most a cut keeps");
    }
}
