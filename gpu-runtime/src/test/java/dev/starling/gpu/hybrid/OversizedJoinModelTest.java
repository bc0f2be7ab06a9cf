package dev.starling.gpu.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.gpu.cuda.DeviceProfile;
import org.junit.jupiter.api.Test;

/** The oversized-join model: its predictions against the H100's measurements, its choices, and the partition counts. */
class OversizedJoinModelTest {
    private static final DeviceProfile H100 = DeviceProfile.H100_80GB;
    private final OversizedJoinModel model = new OversizedJoinModel(H100);

    @Test
    void hybridPredictionsFollowTheMeasuredTimesNotTheThesisAverage() {
        // HybridProbeBenchMain on the H100, uniform probes, one address range (docs/BENCHMARKS.md)
        double[][] measured = {{0.75, 1666}, {0.5, 828}, {0.25, 519}};
        for (double[] m : measured) {
            double predicted = model.hybridProbes(m[0]) / 1e6;
            assertTrue(Math.abs(predicted - m[1]) / m[1] < 0.15, "share " + m[0] + ": predicted " + predicted);
            assertTrue(model.linearProbes(m[0]) / 1e6 > 5 * m[1], "Lutz's thesis' average overestimates");
        }
        assertEquals(H100.deviceProbesPerSecond(), model.hybridProbes(1), 1);
        assertEquals(H100.hostProbesPerSecond(), model.hybridProbes(0), 1);
    }

    @Test
    void partitionedPredictionsFollowTheMeasuredJoins() {
        // OversizedJoinBenchMain on the H100: 25,165,824 probe rows, 16,777,216 build rows (a 512 MB
        // table) at 2x and 4x the device memory left for it; measured: placing the join (pinning the
        // build keys, both passes, joining) 72 and 87 ms; the hybrid join (placing the table, probing
        // it) 99 and 116 ms
        long probes = 25_165_824;
        long build = 16_777_216;
        long table = 512L << 20;
        double[][] measured = {{2, 0.072}, {4, 0.087}};
        for (double[] m : measured) {
            long left = (long) (table / m[0]);
            double predicted = model.partitionedSeconds(probes, build, left);
            assertTrue(Math.abs(predicted - m[1]) / m[1] < 0.15, m[0] + "x: predicted " + predicted);
            OversizedJoinModel.Choice auto = model.choose(OversizedJoin.AUTO, true, probes, build, table, left);
            assertTrue(auto.partitioned(), "the partitioned join was faster: " + auto.reason());
            assertTrue(auto.reason().contains("partitioned join (predicted faster"), auto.reason());
        }
    }

    @Test
    void theSessionCanForceEitherWhereTheMatchesFit() {
        long probes = 20_000_000;
        long build = 20_000_000;
        long table = 1L << 30;
        assertFalse(model.choose(OversizedJoin.HYBRID, true, probes, build, table, table / 4).partitioned());
        assertTrue(model.choose(OversizedJoin.PARTITIONED, true, probes, build, table, table / 4).partitioned());
        OversizedJoinModel.Choice noRoom = model.choose(OversizedJoin.PARTITIONED, true, probes, build, table,
                4 * probes);
        assertFalse(noRoom.partitioned(), "its matches would fill the device memory left");
        assertTrue(noRoom.reason().contains("matches, 80 MB, and its work buffers do not fit the 80 MB left"), noRoom.reason());
        OversizedJoinModel.Choice computed = model.choose(OversizedJoin.PARTITIONED, false, probes, build,
                table, table / 4);
        assertFalse(computed.partitioned(), "a computed probe key is not partitioned");
        assertTrue(computed.reason().contains("hybrid join (the probe key is computed"), computed.reason());
    }

    @Test
    void thePassesSplitTheBitsSoThatASubPartitionFitsASharedMemoryTable() {
        // 2^24 keys: 2^14 sub-partitions of 1,024 keys, three quarters at most of a 2,048-row table
        assertEquals(14, PartitionedJoin.radixBits(1 << 24));
        assertEquals(2, PartitionedJoin.radixBits(1000));
        // with room to spare the first pass takes what the second pass's 9 bits leave
        assertEquals(5, PartitionedJoin.firstPassBits(1 << 24, 1L << 30));
        // 16 MB: work buffers of 2^19 tuples, a build partition at most half of one: 2^7 partitions
        assertEquals(7, PartitionedJoin.firstPassBits(1 << 24, 16L << 20));
        assertEquals(-1, PartitionedJoin.firstPassBits(1L << 30, 1 << 20), "past 512 partitions");
        assertEquals(2L * 16 * 2 * 41_024, PartitionedJoin.minimumAllowance(1 << 24));
        assertEquals(-1, PartitionedJoin.firstPassBits(1 << 24, PartitionedJoin.minimumAllowance(1 << 24) - 1024));
        assertEquals(9, PartitionedJoin.firstPassBits(1 << 24, PartitionedJoin.minimumAllowance(1 << 24)));
    }

    @Test
    void batchesTakeASixteenthOfTheTuplesButAtLeastFourBuildPartitions() {
        assertEquals(2_621_440, PartitionedJoin.batchCapacity(41_943_040, 327_000, 1L << 30));
        assertEquals(4_000_000, PartitionedJoin.batchCapacity(41_943_040, 1_000_000, 1L << 30));
        assertEquals(900_000, PartitionedJoin.batchCapacity(41_943_040, 327_000, 900_000));
    }
}
