package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.KernelStructs;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * How the second partitioning pass and the join walk the first pass's partition pairs: in units
 * (a build partition with its probe partition, or with a part of it where the probe side is too
 * skewed to fit beside it), packed into batches that each fit one work buffer; and each batch's
 * slices, the runs of first-pass tuples one block of the second pass reads. What the kernels read
 * is laid out as {@link KernelStructs#SLICE} and {@link KernelStructs#GROUP}.
 */
final class PartitionSchedule {
    static final long SLICE_BYTES = KernelStructs.SLICE.bytes();
    static final long GROUP_BYTES = KernelStructs.GROUP.bytes();
    private static final VarHandle SLICE_TUPLES = KernelStructs.SLICE.arrayField("tuples");
    private static final VarHandle SLICE_COUNT = KernelStructs.SLICE.arrayField("count");
    private static final VarHandle SLICE_GROUP = KernelStructs.SLICE.arrayField("group");
    private static final VarHandle SLICE_INDEX = KernelStructs.SLICE.arrayField("index");
    private static final VarHandle GROUP_FIRST = KernelStructs.GROUP.arrayField("first");
    private static final VarHandle GROUP_SLICES = KernelStructs.GROUP.arrayField("slices");

    /** Build tuples [buildBegin, buildEnd) joined with probe tuples [probeBegin, probeEnd) of the first pass's arrays. */
    record Unit(long buildBegin, long buildEnd, long probeBegin, long probeEnd) {
        long tuples() {
            return buildEnd - buildBegin + probeEnd - probeBegin;
        }
    }

    /**
     * Units [firstUnit, firstUnit + units) with {@code tuples} tuples in all, read by {@code slices}
     * blocks; their slices and groups start at {@code firstSlice} and {@code 2 * firstUnit} of the metadata.
     */
    record Batch(int firstUnit, int units, long tuples, int firstSlice, int slices) { }

    private final List<Unit> units;
    private final List<Batch> batches;
    private final long sliceTuples;

    private PartitionSchedule(List<Unit> units, List<Batch> batches, long sliceTuples) {
        this.units = units;
        this.batches = batches;
        this.sliceTuples = sliceTuples;
    }

    /**
     * Units and batches for the first pass's partitions ({@code buildStarts}, {@code probeStarts}:
     * where each starts, and the total at the end) under work buffers of {@code capacity} tuples;
     * a pair with no build or no probe tuples joins nothing and is left out. Throws
     * {@link IllegalArgumentException} if a build partition alone fills a work buffer.
     */
    static PartitionSchedule plan(long[] buildStarts, long[] probeStarts, long capacity, long sliceTuples) {
        List<Unit> units = new ArrayList<>();
        for (int p = 0; p + 1 < buildStarts.length; p++) {
            long build = buildStarts[p + 1] - buildStarts[p];
            if (build == 0 || probeStarts[p + 1] == probeStarts[p]) {
                continue;
            }
            if (build >= capacity) {
                throw new IllegalArgumentException("build partition " + p + " of " + build
                        + " tuples fills a work buffer of " + capacity);
            }
            for (long s = probeStarts[p]; s < probeStarts[p + 1]; s += capacity - build) {
                units.add(new Unit(buildStarts[p], buildStarts[p + 1], s, Math.min(probeStarts[p + 1], s + capacity - build)));
            }
        }
        List<Batch> batches = new ArrayList<>();
        int first = 0;
        long tuples = 0;
        int slices = 0;
        int firstSlice = 0;
        for (int u = 0; u < units.size(); u++) {
            Unit unit = units.get(u);
            if (u > first && tuples + unit.tuples() > capacity) {
                batches.add(new Batch(first, u - first, tuples, firstSlice, slices));
                firstSlice += slices;
                first = u;
                tuples = 0;
                slices = 0;
            }
            tuples += unit.tuples();
            slices += slices(unit.buildEnd() - unit.buildBegin(), sliceTuples)
                    + slices(unit.probeEnd() - unit.probeBegin(), sliceTuples);
        }
        if (first < units.size()) {
            batches.add(new Batch(first, units.size() - first, tuples, firstSlice, slices));
        }
        return new PartitionSchedule(units, batches, sliceTuples);
    }

    private static int slices(long tuples, long sliceTuples) {
        return Math.toIntExact((tuples + sliceTuples - 1) / sliceTuples);
    }

    List<Batch> batches() {
        return batches;
    }

    /** The most tuples a batch has: what a work buffer must hold. */
    long largestBatch() {
        return batches.stream().mapToLong(Batch::tuples).max().orElse(0);
    }

    /** The most slices a batch has. */
    int mostSlices() {
        return batches.stream().mapToInt(Batch::slices).max().orElse(0);
    }

    /** Bytes of {@link #metadata}. */
    long metadataBytes() {
        return groupsOffset() + 2L * units.size() * GROUP_BYTES;
    }

    /** Where the groups start in {@link #metadata}. */
    long groupsOffset() {
        return (long) batches.stream().mapToInt(Batch::slices).sum() * SLICE_BYTES;
    }

    /**
     * Every batch's slices, then every unit's two groups (build, probe), with the first pass's
     * tuples at {@code built} and {@code probed}: slice and group numbers count from their batch's first.
     */
    ByteBuffer metadata(long built, long probed) {
        ByteBuffer bytes = ByteBuffer.allocateDirect(Math.toIntExact(metadataBytes())).order(ByteOrder.LITTLE_ENDIAN);
        MemorySegment slices = MemorySegment.ofBuffer(bytes);
        MemorySegment groups = slices.asSlice(groupsOffset());
        int slice = 0;
        int group = 0;
        for (Batch b : batches) {
            int first = 0;
            for (int u = 0; u < b.units(); u++) {
                Unit unit = units.get(b.firstUnit() + u);
                first = group(slices, slice + first, groups, group++, 2 * u, first, built, unit.buildBegin(), unit.buildEnd());
                first = group(slices, slice + first, groups, group++, 2 * u + 1, first, probed, unit.probeBegin(),
                        unit.probeEnd());
            }
            slice += first;
        }
        return bytes;
    }

    /**
     * Writes group {@code g} of its batch (entry {@code at} of all groups) and its slices over tuples
     * [begin, end) of {@code tuples}, the batch's slices from {@code first} on (entry {@code sliceAt}
     * of all slices); returns the batch's next slice.
     */
    private int group(MemorySegment slices, int sliceAt, MemorySegment groups, int at, int g, int first, long tuples,
                      long begin, long end) {
        int n = slices(end - begin, sliceTuples);
        GROUP_FIRST.set(groups, 0L, (long) at, first);
        GROUP_SLICES.set(groups, 0L, (long) at, n);
        for (int s = 0; s < n; s++) {
            long from = begin + s * sliceTuples;
            long i = sliceAt + s;
            SLICE_TUPLES.set(slices, 0L, i, tuples + from * PartitionedJoin.TUPLE_BYTES);
            SLICE_COUNT.set(slices, 0L, i, Math.toIntExact(Math.min(sliceTuples, end - from)));
            SLICE_GROUP.set(slices, 0L, i, g);
            SLICE_INDEX.set(slices, 0L, i, s);
        }
        return first + n;
    }
}
