package dev.starling.gpu.clone;

import dev.starling.gpu.cuda.BankGeometry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.gen.ZipfCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Conflict statistics against the paper's analytic values, and the clone layout's guarantees. */
class CloneLayoutTest {
    private static final BankGeometry G = BankGeometry.DEFAULT;
    private static final int CARDINALITY = 1024;
    private static final int ROWS = 200_000;

    @Test
    void uniformCodesTouchTheExpectedNumberOfBanks() {
        int[] codes = ZipfCodes.generate(1_000_000, CARDINALITY, 0, 1, ZipfCodes.Ranks.SHUFFLED);
        ConflictStatistics s = ConflictStatistics.of(codes, G, 0);
        // 32 rows into 32 equally likely banks: 32 (1 - (31/32)^32) distinct on average
        double expected = 32 * (1 - Math.pow(31.0 / 32, 32));
        assertEquals(20.41, expected, 0.01);
        assertEquals(expected, s.distinctBanks(), 0.05);
        // the paper's Table 1 (theta 0): write 3.54, read 3.44 serialization rounds
        assertEquals(3.54, s.writeRounds(), 0.05);
        assertEquals(3.44, s.readRounds(), 0.05);
    }

    /**
     * The paper's Table 1 at theta 1 (cardinality 1024): 18.24 distinct banks, 5.33 write and
     * 2.77 read serialization rounds a chunk, with codes in rank order, as its set-up has them;
     * ranks shuffled over the codes spread the popular values over more banks.
     */
    @Test
    void skewedCodesInRankOrderMeetThePapersTable() {
        ConflictStatistics ordered = ConflictStatistics.of(
                ZipfCodes.generate(1_000_000, CARDINALITY, 1, 5, ZipfCodes.Ranks.ORDERED), G, 0);
        ConflictStatistics shuffled = ConflictStatistics.of(
                ZipfCodes.generate(1_000_000, CARDINALITY, 1, 5, ZipfCodes.Ranks.SHUFFLED), G, 0);
        assertEquals(18.24, ordered.distinctBanks(), 0.1);
        assertEquals(5.33, ordered.writeRounds(), 0.1);
        assertEquals(2.77, ordered.readRounds(), 0.1);
        assertTrue(shuffled.distinctBanks() < ordered.distinctBanks() - 0.5, shuffled.toString());
    }

    @ParameterizedTest
    @CsvSource({
        "READ, 0, 1, 0", "READ, 0, 2, 0", "READ, 1, 4, 0", "READ, 2, 3, 0",
        "WRITE, 0, 1, 0", "WRITE, 0, 2, 0", "WRITE, 1, 4, 0", "WRITE, 2, 3, 0",
        "WRITE, 0, 4, 16", "WRITE, 1.5, 2, 16", "WRITE, 2, 6, 16"
    })
    void everyRowKeepsItsValueWithinTheBudgetAndConflictsOnlyLess(AccessMode mode, double theta, double budget, int window) {
        int[] codes = ZipfCodes.generate(ROWS, CARDINALITY, theta, 7, ZipfCodes.Ranks.SHUFFLED);
        CloneLayout layout = new CloneLayoutOptimizer(G, mode, budget, window).optimize(codes, CARDINALITY);
        for (int r = 0; r < codes.length; r++) {
            if (layout.cloneMap()[layout.slots()[r]] != codes[r]) {
                assertEquals(codes[r], layout.cloneMap()[layout.slots()[r]], "row " + r);
            }
        }
        assertTrue(layout.cloneMap().length <= Math.floor(budget * CARDINALITY), layout.cloneMap().length + " entries");
        int entries = 0;
        for (int c : layout.copies()) {
            entries += c;
        }
        assertTrue(entries <= layout.cloneMap().length);
        ConflictStatistics before = ConflictStatistics.of(codes, G, window);
        ConflictStatistics after = ConflictStatistics.of(layout.slots(), G, window);
        if (mode == AccessMode.WRITE) {
            assertTrue(after.writeRounds() <= before.writeRounds(), before + " -> " + after);
            assertTrue(after.windowConflicts() <= before.windowConflicts(), before + " -> " + after);
        } else {
            assertTrue(after.readRounds() <= before.readRounds(), before + " -> " + after);
        }
        assertTrue(after.distinctBanks() >= before.distinctBanks(), before + " -> " + after);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "1, 0", "2, 0", "0, 16", "2, 16"})
    void withRoomEveryWriteChunkIsConflictFree(double theta, int window) {
        int[] codes = ZipfCodes.generate(ROWS, CARDINALITY, theta, 11, ZipfCodes.Ranks.SHUFFLED);
        CloneLayout layout = new CloneLayoutOptimizer(G, AccessMode.WRITE, 32, window).optimize(codes, CARDINALITY);
        ConflictStatistics after = ConflictStatistics.of(layout.slots(), G, window);
        // one round per chunk: no bank, and so no value, repeats within a chunk
        assertEquals(1.0, after.writeRounds(), 1e-12, after.toString());
        if (window > 0) {
            assertEquals(0.0, after.windowConflicts(), 1e-12, after.toString());
        }
    }

    @Test
    void withRoomEveryReadChunkIsConflictFree() {
        int[] codes = ZipfCodes.generate(ROWS, CARDINALITY, 0.5, 13, ZipfCodes.Ranks.SHUFFLED);
        CloneLayout layout = new CloneLayoutOptimizer(G, AccessMode.READ, 32, 0).optimize(codes, CARDINALITY);
        assertEquals(1.0, ConflictStatistics.of(layout.slots(), G, 0).readRounds(), 1e-12);
    }

    @Test
    void noBudgetMeansNoClones() {
        int[] codes = ZipfCodes.generate(ROWS, CARDINALITY, 1, 17, ZipfCodes.Ranks.SHUFFLED);
        CloneLayout layout = new CloneLayoutOptimizer(G, AccessMode.WRITE, 1, 0).optimize(codes, CARDINALITY);
        assertEquals(CARDINALITY, layout.cloneMap().length);
        assertEquals(1.0, layout.copiesPerValue(), 1e-12);
    }
}
