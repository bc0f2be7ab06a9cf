package dev.starling.gpu.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The second pass's schedule: units, batches within a work buffer, and the slices and groups the kernels read. */
class PartitionScheduleTest {
    @Test
    void pairsArePackedIntoBatchesThatFitAWorkBuffer() {
        // four partitions: 10+30, none+5 (left out), 20+60, 10+0 (left out); buffers of 100 tuples
        long[] build = {0, 10, 10, 30, 40};
        long[] probe = {0, 30, 35, 95, 95};
        PartitionSchedule s = PartitionSchedule.plan(build, probe, 100, 16);
        assertEquals(List.of(new PartitionSchedule.Batch(0, 1, 40, 0, 1 + 2), new PartitionSchedule.Batch(1, 1, 80, 3, 2 + 4)),
                s.batches());
        assertEquals(80, s.largestBatch());
        assertEquals(6, s.mostSlices());
    }

    @Test
    void aSkewedProbePartitionIsSplitIntoUnitsThatEachFitBesideItsBuildPartition() {
        // one partition of 20 build and 250 probe tuples, buffers of 100: probes in runs of 80, slices of 64
        PartitionSchedule s = PartitionSchedule.plan(new long[] {0, 20}, new long[] {0, 250}, 100, 64);
        assertEquals(List.of(new PartitionSchedule.Batch(0, 1, 100, 0, 3), new PartitionSchedule.Batch(1, 1, 100, 3, 3),
                new PartitionSchedule.Batch(2, 1, 100, 6, 3), new PartitionSchedule.Batch(3, 1, 30, 9, 2)), s.batches());
        ByteBuffer m = s.metadata(1_000_000, 2_000_000);
        // batch 1's probe slices: tuples 80..143 and 144..159 of the probe partitions, group 1
        assertSlice(m, 4, 2_000_000 + 80 * 16, 64, 1, 0);
        assertSlice(m, 5, 2_000_000 + 144 * 16, 16, 1, 1);
        // batch 3's groups: build slices from 0, one slice; probe from 1, one slice
        int groups = (int) (s.groupsOffset() + 3 * 2 * PartitionSchedule.GROUP_BYTES);
        assertEquals(List.of(0, 1, 1, 1), List.of(m.getInt(groups), m.getInt(groups + 4), m.getInt(groups + 8),
                m.getInt(groups + 12)));
        assertEquals(11 * PartitionSchedule.SLICE_BYTES + 8 * PartitionSchedule.GROUP_BYTES, s.metadataBytes());
    }

    @Test
    void groupsAreCutIntoSlicesAndNumberedWithinTheirBatch() {
        // two partitions in one batch: 40+70 and 5+9 tuples, slices of 32
        PartitionSchedule s = PartitionSchedule.plan(new long[] {0, 40, 45}, new long[] {0, 70, 79}, 1000, 32);
        assertEquals(List.of(new PartitionSchedule.Batch(0, 2, 124, 0, 2 + 3 + 1 + 1)), s.batches());
        ByteBuffer m = s.metadata(0, 1 << 20);
        assertSlice(m, 1, 32 * 16, 8, 0, 1);
        assertSlice(m, 4, (1 << 20) + 64 * 16, 6, 1, 2);
        assertSlice(m, 5, 40 * 16, 5, 2, 0);
        assertSlice(m, 6, (1 << 20) + 70 * 16, 9, 3, 0);
        int groups = (int) s.groupsOffset();
        assertEquals(List.of(0, 2, 2, 3, 5, 1, 6, 1), List.of(m.getInt(groups), m.getInt(groups + 4),
                m.getInt(groups + 8), m.getInt(groups + 12), m.getInt(groups + 16), m.getInt(groups + 20),
                m.getInt(groups + 24), m.getInt(groups + 28)));
    }

    @Test
    void aBuildPartitionThatFillsABufferIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> PartitionSchedule.plan(new long[] {0, 100}, new long[] {0, 5}, 100, 16));
    }

    private static void assertSlice(ByteBuffer m, int slice, long tuples, int count, int group, int index) {
        int at = (int) (slice * PartitionSchedule.SLICE_BYTES);
        assertEquals(List.of(tuples, (long) count, (long) group, (long) index), List.of(m.getLong(at),
                (long) m.getInt(at + 8), (long) m.getInt(at + 12), (long) m.getInt(at + 16)));
    }
}
