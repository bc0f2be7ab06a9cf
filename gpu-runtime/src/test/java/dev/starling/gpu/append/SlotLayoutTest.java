package dev.starling.gpu.append;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A batch's place in a slot of the append ring: every run of values and NULL flags starts at its
 * destination's address modulo 16 (the persistent kernel's 16-byte copies depend on it), the runs
 * do not overlap, and a batch of as many rows as a slot carries fits in it, for columns of 1, 2, 4
 * and 8 bytes at any destination address and any slot address a ring gives (slots are multiples
 * of 16 bytes).
 */
class SlotLayoutTest {
    private static final int[] WIDTHS = {1, 2, 4, 8};

    @Test
    void runsAlignToTheirDestinationsDoNotOverlapAndFitTheSlot() {
        SplittableRandom random = new SplittableRandom(42);
        for (int trial = 0; trial < 2_000; trial++) {
            int columns = random.nextInt(1, 9);
            int[] widths = new int[columns];
            boolean[] nulls = new boolean[columns];
            long[] values = new long[columns];
            long[] flags = new long[columns];
            for (int c = 0; c < columns; c++) {
                widths[c] = WIDTHS[random.nextInt(WIDTHS.length)];
                nulls[c] = random.nextBoolean();
                values[c] = random.nextLong(1L << 20, 1L << 40);
                flags[c] = random.nextLong(1L << 20, 1L << 40);
            }
            SlotLayout layout = new SlotLayout(widths, nulls, random.nextLong(1, 1 << 16));
            assertEquals(0, layout.slotBytes() % 16, "slots are whole 16-byte words");
            long slot = (random.nextLong(1L << 20, 1L << 40) & ~4095L) + random.nextInt(8) * layout.slotBytes();
            long rows = random.nextBoolean() ? layout.rowsPerSlot() : random.nextLong(1, layout.rowsPerSlot() + 1);
            long[] offsets = layout.offsets(slot, rows, values, flags);
            long end = 0;
            for (int c = 0; c < columns; c++) {
                assertEquals(Math.floorMod(values[c], 16), Math.floorMod(slot + offsets[c], 16), "values of column " + c);
                assertTrue(offsets[c] >= end, "column " + c + "'s values start after what comes before");
                end = offsets[c] + rows * widths[c];
                if (nulls[c]) {
                    long n = offsets[columns + c];
                    assertEquals(Math.floorMod(flags[c], 16), Math.floorMod(slot + n, 16), "NULL flags of column " + c);
                    assertTrue(n >= end, "column " + c + "'s NULL flags start after its values");
                    end = n + rows;
                } else {
                    assertEquals(-1, offsets[columns + c]);
                }
            }
            assertTrue(end <= layout.slotBytes(), rows + " rows end at " + end + " in a slot of " + layout.slotBytes());
        }
    }
}
