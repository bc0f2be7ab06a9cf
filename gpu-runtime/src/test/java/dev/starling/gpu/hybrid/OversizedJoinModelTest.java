package dev.starling.gpu.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.accel.Settings.OversizedJoin;
import org.junit.jupiter.api.Test;

/** The oversized-join model: its predictions against the H100's measurements, its choices, and the partition count. */
class OversizedJoinModelTest {
    @Test
    void hybridPredictionsFollowTheMeasuredTimesNotTheThesisAverage() {
        // HybridProbeBenchMain on the H100, uniform probes, one address range (docs/BENCHMARKS.md)
        double[][] measured = {{0.75, 1666}, {0.5, 828}, {0.25, 519}};
        for (double[] m : measured) {
            double predicted = OversizedJoinModel.hybridProbes(m[0]) / 1e6;
            assertTrue(Math.abs(predicted - m[1]) / m[1] < 0.15, "share " + m[0] + ": predicted " + predicted);
            assertTrue(OversizedJoinModel.linearProbes(m[0]) / 1e6 > 5 * m[1], "the thesis' average overestimates");
        }
        assertEquals(OversizedJoinModel.DEVICE_PROBES, OversizedJoinModel.hybridProbes(1), 1);
        assertEquals(OversizedJoinModel.HOST_PROBES, OversizedJoinModel.hybridProbes(0), 1);
    }

    @Test
    void autoPicksTheFasterPredictionAndTheSessionCanForceEither() {
        long probes = 20_000_000;
        long build = 20_000_000;
        long table = 1L << 30;
        OversizedJoinModel.Choice mostlyOnDevice = OversizedJoinModel.choose(OversizedJoin.AUTO, probes, build, table,
                table - (table >> 6));
        assertFalse(mostlyOnDevice.partitioned(), mostlyOnDevice.reason());
        OversizedJoinModel.Choice mostlyOnHost = OversizedJoinModel.choose(OversizedJoin.AUTO, probes, build, table, table / 4);
        assertTrue(mostlyOnHost.partitioned(), mostlyOnHost.reason());
        assertTrue(mostlyOnHost.reason().contains("partitioned join (predicted faster"), mostlyOnHost.reason());
        assertFalse(OversizedJoinModel.choose(OversizedJoin.HYBRID, probes, build, table, table / 4).partitioned());
        assertTrue(OversizedJoinModel.choose(OversizedJoin.PARTITIONED, probes, build, table, table - 1).partitioned());
        OversizedJoinModel.Choice noRoom = OversizedJoinModel.choose(OversizedJoin.PARTITIONED, probes, build, table,
                4 * probes);
        assertFalse(noRoom.partitioned(), "its matches would fill the device memory left");
        assertTrue(noRoom.reason().contains("matches, 80 MB, and its tables do not fit the 80 MB left"), noRoom.reason());
    }

    @Test
    void partitionsAreAsFewAsLetOneTableFit() {
        // 300,000 keys: 16 partitions of about 23,500 keys, 65,536 slots of 16 bytes each
        assertEquals(4, PartitionedJoin.partitionBits(300_000, 1 << 20));
        assertEquals(1, PartitionedJoin.partitionBits(300_000, 1L << 30));
        assertEquals(-1, PartitionedJoin.partitionBits(1L << 30, 1 << 20), "past 256 partitions");
        assertEquals(65_536, PartitionedJoin.tableSlots(23_500));
        // 2^24 keys over 256 partitions: 81,984 keys each, 262,144 slots, four tables' worth
        assertEquals(4L * 262_144 * 16, PartitionedJoin.minimumAllowance(1 << 24));
    }
}
