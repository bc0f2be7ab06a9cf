package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.KernelStructs;
import dev.starling.gpu.cuda.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * The out-of-core partitioned hash join (Lutz's thesis' Triton join, §4.4): for a build side whose
 * hash table is far past the device memory budget. The first pass radix-partitions both sides on
 * the GPU (the build keys read from pinned host memory over the link, the probe keys where they
 * are resident) into (key, row) tuples; partitions go to device memory as far as the allowance
 * goes and spill to host memory past it (one address range, so the kernels cannot tell). Then,
 * batch by batch of partition pairs, the second pass partitions them again into a work buffer in
 * device memory, into sub-partitions whose build side fits a hash table in a block's shared
 * memory, and the join builds and probes those tables. Two work buffers on two streams pipeline
 * the batches: while one batch is joined, the next one's second pass pulls its partitions over
 * the link. The result is, per probe row, the build row its key matches, or -1.
 */
public final class PartitionedJoin {
    private static final String KERNELS = "partitioned_join";
    /** The most partitions a pass makes: the kernels' shared-memory histograms hold 2^9. */
    static final int MAX_BITS = 9;
    /** Build tuples a shared-memory table holds (kernels/partitioned_join.cu). */
    static final int TABLE_ROWS = 2048;
    /** The partitioning kernels' fixed block size (kernels/partitioned_join.cu). */
    private static final int THREADS = 256;
    private static final int JOIN_THREADS = 512;
    private static final int SCAN_THREADS = 1024;
    static final long TUPLE_BYTES = KernelStructs.TUPLE.bytes();
    /**
     * Batches a join's tuples are cut into at least: smaller batches leave more of the allowance
     * to keep partitions on the device, and a sixteenth keeps the work buffers' share small.
     */
    static final long BATCHES = 16;
    /** First-pass tuples one block of the second pass reads. */
    static final long SLICE_TUPLES = 16_384;

    /**
     * What a join did: its partitions after the first pass and after both, the batches it joined
     * them in, the bytes of partitions spilled to host memory; and where its time went: allocating
     * (pinning) and filling host memory, the first pass, the second pass and the join together.
     */
    public record Stats(int partitions, int subpartitions, int batches, long spilledBytes, double hostMillis,
                        double partitionMillis, double joinMillis) { }

    /** Probe keys in device memory: {@code width} bytes each (1, 4 or 8), NULL flags one byte per row (0: none). */
    public record ProbeKeys(long values, long nulls, int width, long rows) { }

    /** The build side's first {@code rows} keys, unique apart from NULLs ({@code nulls} null: none), which join nothing. */
    public record BuildKeys(long[] values, boolean[] nulls, int rows) { }

    private final GpuDevice device;
    private final int grid;

    private PartitionedJoin(GpuDevice device) {
        this.device = device;
        // one block per SM: each block writes a partition's tuples in one sequential stream, and
        // fewer streams into host memory at once made the spilling first pass 2-3x faster on the
        // H100 than four blocks per SM (docs/BENCHMARKS.md); in device memory it costs 1.6 ms in 8
        this.grid = device.multiprocessors();
    }

    /**
     * Fills {@code matches} (one int per probe row) with each probe row's build row (the index of
     * its key among {@code build}'s), or -1, using at most {@code allowance} bytes of device memory
     * beyond {@code matches} (more first-pass partitions the smaller it is). Throws
     * {@link GpuOutOfMemoryException} when even the most partitions leave one too large for it.
     */
    public static Stats run(GpuDevice device, ProbeKeys probe, BuildKeys build, long allowance, DeviceBuffer matches) {
        return new PartitionedJoin(device).join(probe, build, allowance, matches);
    }

    /** The least device memory a join of {@code rows} build keys runs in: work buffers for the most first-pass partitions. */
    static long minimumAllowance(long rows) {
        return 2 * TUPLE_BYTES * 2 * perPartition(rows, MAX_BITS);
    }

    /** Keys a partition of unique keys holds at most: hashing spreads them evenly, and a quarter more than the mean covers a partition's excess. */
    private static long perPartition(long rows, int bits) {
        return (rows >> bits) + (rows >> (bits + 2)) + 64;
    }

    /** Bits of both passes together: enough that a build sub-partition averages at most three quarters of a shared-memory table. */
    static int radixBits(long rows) {
        int bits = 2;
        while ((rows >> bits) > TABLE_ROWS * 3 / 4) {
            bits++;
        }
        return bits;
    }

    /** Tuples a work buffer holds at most with {@code allowance} bytes: the two take all of it where partitions spill anyway. */
    static long workCapacity(long allowance) {
        return allowance / 2 / TUPLE_BYTES;
    }

    /**
     * Bits of the first pass for {@code rows} build keys under {@code allowance} bytes: the fewest
     * that leave the second pass at most {@value #MAX_BITS} and a build partition at most half a
     * work buffer, so that a probe partition is joined in few units; -1 if even {@value #MAX_BITS} do not.
     * Fewer partitions make the first pass faster: its writes over the link come in longer runs.
     */
    static int firstPassBits(long rows, long allowance) {
        for (int bits = Math.max(1, radixBits(rows) - MAX_BITS); bits <= MAX_BITS; bits++) {
            if (2 * perPartition(rows, bits) <= workCapacity(allowance)) {
                return bits;
            }
        }
        return -1;
    }

    /**
     * Tuples a batch holds at most, of {@code tuples} in all with build partitions of at most
     * {@code largestBuild}: a {@value #BATCHES}th of them, but at least four build partitions'
     * worth, so that units fill most of a buffer, and at most {@code capacity}.
     */
    static long batchCapacity(long tuples, long largestBuild, long capacity) {
        return Math.min(capacity, Math.max(tuples / BATCHES, 4 * largestBuild));
    }

    private Stats join(ProbeKeys probe, BuildKeys buildKeys, long allowance, DeviceBuffer matches) {
        device.makeCurrent();
        int rows = buildKeys.rows();
        int bits = firstPassBits(rows, allowance);
        if (bits < 0) {
            throw new GpuOutOfMemoryException("a partitioned join of " + rows + " build rows needs more than "
                    + (1 << MAX_BITS) + " partitions under " + allowance + " bytes of device memory");
        }
        int subBits = Math.max(1, radixBits(rows) - bits);
        int fanout = 1 << bits;
        long t0 = System.nanoTime();
        matches.fill((byte) 0xFF, probe.rows() * 4);
        try (MappedHostBuffer build = device.mappedHost(Math.max(8, rows * 8L));
             MappedHostBuffer buildNulls = buildKeys.nulls() == null ? null : device.mappedHost(rows);
             DeviceBuffer counts = device.memory().allocate((long) fanout * grid * 4, "partition histogram");
             DeviceBuffer offsets = device.memory().allocate((long) fanout * grid * 8, "partition offsets")) {
            MemorySegment.copy(buildKeys.values(), 0, build.segment(), ValueLayout.JAVA_LONG, 0, rows);
            long buildFlags = 0;
            if (buildNulls != null) {
                for (int r = 0; r < rows; r++) {
                    buildNulls.segment().set(ValueLayout.JAVA_BYTE, r, (byte) (buildKeys.nulls()[r] ? 1 : 0));
                }
                buildFlags = buildNulls.address();
            }
            long t1 = System.nanoTime();
            Histogram buildSide = histogram(build.address(), buildFlags, 8, rows, bits, counts);
            Histogram probeSide = histogram(probe.values(), probe.nulls(), probe.width(), probe.rows(), bits, counts);
            PartitionSchedule schedule = schedule(buildSide, probeSide,
                    workCapacity(allowance - counts.heldBytes() - offsets.heldBytes()));
            Work work = new Work(schedule, subBits);
            long left = Math.max(0, allowance - counts.heldBytes() - offsets.heldBytes() - work.bytes());
            long t2 = System.nanoTime();
            // the probe side's partitions first: they come from device memory and are the larger side
            long probeBytes = probeSide.starts()[fanout] * TUPLE_BYTES;
            try (SpillBuffer probed = SpillBuffer.allocate(device, probeBytes, Math.min(left, probeBytes), "probe partitions");
                 SpillBuffer built = SpillBuffer.allocate(device, buildSide.starts()[fanout] * TUPLE_BYTES,
                         left - probed.deviceBytes(), "build partitions")) {
                long t3 = System.nanoTime();
                scatter(build.address(), buildFlags, 8, rows, bits, buildSide, offsets, built.address());
                scatter(probe.values(), probe.nulls(), probe.width(), probe.rows(), bits, probeSide, offsets, probed.address());
                device.synchronize("partitioning");
                long t4 = System.nanoTime();
                work.run(bits, built.address(), probed.address(), matches);
                long t5 = System.nanoTime();
                return new Stats(fanout, fanout << subBits, schedule.batches().size(), built.hostBytes() + probed.hostBytes(),
                        ms(t1 - t0 + t3 - t2), ms(t2 - t1 + t4 - t3), ms(t5 - t4));
            }
        }
    }

    private static PartitionSchedule schedule(Histogram build, Histogram probe, long capacity) {
        long[] starts = build.starts();
        long largest = 0;
        for (int p = 0; p + 1 < starts.length; p++) {
            largest = Math.max(largest, starts[p + 1] - starts[p]);
        }
        long tuples = starts[starts.length - 1] + probe.starts()[starts.length - 1];
        try {
            return PartitionSchedule.plan(starts, probe.starts(), batchCapacity(tuples, largest, capacity), SLICE_TUPLES);
        } catch (IllegalArgumentException e) {
            throw new GpuOutOfMemoryException("a partitioned join's " + e.getMessage());
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /**
     * Per partition and block (partition major), where the block writes its first tuple of the
     * partition; and where each partition starts, and at [fanout] the total.
     */
    private record Histogram(long[] offsets, long[] starts) { }

    /** Runs partition_histogram over {@code rows} keys and scans its counts; {@code counts} is its scratch space. */
    private Histogram histogram(long keys, long nulls, int width, long rows, int bits, DeviceBuffer counts) {
        int fanout = 1 << bits;
        launch("partition_histogram", grid, THREADS, null, Pointer.to(new long[] {keys}), Pointer.to(new int[] {width}),
                Pointer.to(new long[] {nulls}), Pointer.to(new long[] {rows}), Pointer.to(new int[] {bits}),
                Pointer.to(counts.pointer()));
        int[] perBlock = new int[fanout * grid];
        counts.download(Pointer.to(perBlock), perBlock.length * 4L);
        long[] offsets = new long[perBlock.length];
        long total = 0;
        for (int i = 0; i < perBlock.length; i++) {
            offsets[i] = total;
            total += Integer.toUnsignedLong(perBlock[i]);
        }
        long[] starts = new long[fanout + 1];
        for (int p = 0; p < fanout; p++) {
            starts[p] = offsets[p * grid];
        }
        starts[fanout] = total;
        return new Histogram(offsets, starts);
    }

    /** Writes the keys' tuples partition by partition at {@code out}, each block at its place by {@code h}. */
    private void scatter(long keys, long nulls, int width, long rows, int bits, Histogram h, DeviceBuffer offsets, long out) {
        offsets.upload(Pointer.to(h.offsets()), 0, h.offsets().length * 8L);
        launch("partition_scatter", grid, THREADS, null, Pointer.to(new long[] {keys}), Pointer.to(new int[] {width}),
                Pointer.to(new long[] {nulls}), Pointer.to(new long[] {rows}), Pointer.to(new int[] {bits}),
                Pointer.to(offsets.pointer()), Pointer.to(new long[] {out}));
    }

    /**
     * The second pass and the join over a schedule's batches, alternating between two lanes, each
     * a work buffer, its counts and a stream of its own: batch j's second pass queues behind batch
     * j - 2's join in its lane and runs beside batch j - 1's join in the other.
     */
    private final class Work {
        private final PartitionSchedule schedule;
        private final int subBits;
        private final int lanes;
        private final long tupleBytes;
        private final long countBytes;

        Work(PartitionSchedule schedule, int subBits) {
            this.schedule = schedule;
            this.subBits = subBits;
            this.lanes = Math.min(2, schedule.batches().size());
            this.tupleBytes = schedule.largestBatch() * TUPLE_BYTES;
            this.countBytes = (((long) schedule.mostSlices() << subBits) + 1) * 4;
        }

        /** Device memory it takes. */
        long bytes() {
            return lanes * (tupleBytes + countBytes) + schedule.metadataBytes();
        }

        void run(int bits, long built, long probed, DeviceBuffer matches) {
            if (lanes == 0) {
                return;
            }
            try (DeviceBuffer metadata = device.memory().allocate(schedule.metadataBytes(), "join schedule");
                 DeviceBuffer tuples = device.memory().allocate(lanes * tupleBytes, "sub-partitions");
                 DeviceBuffer counts = device.memory().allocate(lanes * countBytes, "sub-partition counts");
                 GpuStream first = new GpuStream(device);
                 GpuStream second = new GpuStream(device)) {
                metadata.upload(Pointer.to(schedule.metadata(built, probed)), 0, schedule.metadataBytes());
                List<PartitionSchedule.Batch> batches = schedule.batches();
                for (int j = 0; j < batches.size(); j++) {
                    PartitionSchedule.Batch b = batches.get(j);
                    int lane = j % lanes;
                    CUstream stream = (lane == 0 ? first : second).handle();
                    long slices = metadata.address() + (long) b.firstSlice() * PartitionSchedule.SLICE_BYTES;
                    long groups = metadata.address() + schedule.groupsOffset()
                            + 2L * b.firstUnit() * PartitionSchedule.GROUP_BYTES;
                    long laneCounts = counts.address() + lane * countBytes;
                    long laneTuples = tuples.address() + lane * tupleBytes;
                    secondPass(stream, b.slices(), slices, groups, bits, laneCounts, laneTuples);
                    launch("join_subpartitions", b.units() << subBits, JOIN_THREADS, stream, Pointer.to(new long[] {groups}),
                            Pointer.to(new long[] {laneCounts}), Pointer.to(new long[] {laneTuples}),
                            Pointer.to(new int[] {bits + subBits}), Pointer.to(new int[] {subBits}),
                            Pointer.to(matches.pointer()));
                }
                first.synchronize("the partitioned join");
                second.synchronize("the partitioned join");
            }
        }

        /** Partitions a batch's {@code slices} into {@code out} by the {@code subBits} after the first {@code bits}. */
        private void secondPass(CUstream stream, int slices, long sliceTable, long groups, int bits, long counts, long out) {
            Pointer[] where = {Pointer.to(new long[] {sliceTable}), Pointer.to(new long[] {groups}),
                    Pointer.to(new int[] {bits}), Pointer.to(new int[] {subBits}), Pointer.to(new long[] {counts})};
            launch("subpartition_histogram", slices, THREADS, stream, where);
            launch("exclusive_scan", 1, SCAN_THREADS, stream, Pointer.to(new long[] {counts}),
                    Pointer.to(new int[] {slices << subBits}));
            launch("subpartition_scatter", slices, THREADS, stream, where[0], where[1], where[2], where[3], where[4],
                    Pointer.to(new long[] {out}));
        }
    }

    private void launch(String kernel, int blocks, int threads, CUstream stream, Pointer... params) {
        CUfunction f = device.kernel(KERNELS, kernel);
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, stream, Pointer.to(params), null),
                "launch of " + kernel);
    }
}
