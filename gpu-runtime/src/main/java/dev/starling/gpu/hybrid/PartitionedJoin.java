package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * The out-of-core partitioned hash join (the thesis' Triton join): for a build side whose hash
 * table is far past the device memory budget. Both sides are radix-partitioned on the GPU (the
 * build keys read from pinned host memory over the link, the probe keys where they are resident)
 * into (key, row) tuples; partitions go to device memory as far as the allowance goes and spill to
 * host memory past it (one address range, so the kernels cannot tell). Then batches of partition
 * pairs are joined, each partition's table small enough that a batch of them fits the allowance;
 * spilled partitions are read in place over the link, so the transfer overlaps the join's work.
 * The result is, per probe row, the build row its key matches, or -1.
 */
public final class PartitionedJoin {
    private static final String KERNELS = "partitioned_join";
    /** The kernels' shared-memory histograms hold at most 2^8 partitions. */
    static final int MAX_BITS = 8;
    /** partition_scatter's fixed block size (kernels/partitioned_join.cu). */
    private static final int SCATTER_THREADS = 256;
    private static final int THREADS = 256;
    private static final int TUPLE_BYTES = 16;
    /** The share of the allowance (1/n) the partitions' hash tables of one batch may take. */
    static final long TABLE_SHARE = 4;

    /**
     * What a join did: its partitions, the batches they were joined in, the bytes of partitions
     * spilled to host memory; and where its time went: allocating (pinning) and filling host
     * memory, partitioning, joining the partitions.
     */
    public record Stats(int partitions, int batches, long spilledBytes, double hostMillis, double partitionMillis,
                        double joinMillis) { }

    /** Probe keys in device memory: {@code width} bytes each (1, 4 or 8), NULL flags one byte per row (0: none). */
    public record ProbeKeys(long values, long nulls, int width, long rows) { }

    /** The build side's first {@code rows} keys, unique apart from NULLs ({@code nulls} null: none), which join nothing. */
    public record BuildKeys(long[] values, boolean[] nulls, int rows) { }

    private final GpuDevice device;
    private final int grid;

    private PartitionedJoin(GpuDevice device) {
        this.device = device;
        this.grid = device.multiprocessors() * 4;
    }

    /**
     * Fills {@code matches} (one int per probe row) with each probe row's build row (the index of
     * its key among {@code build}'s), or -1, using at most {@code allowance}
     * bytes of device memory beyond {@code matches} (more partitions the smaller it is). Throws
     * {@link GpuOutOfMemoryException} when even the most partitions leave a table too large for it.
     */
    public static Stats run(GpuDevice device, ProbeKeys probe, BuildKeys build, long allowance, DeviceBuffer matches) {
        return new PartitionedJoin(device).join(probe, build, allowance, matches);
    }

    /** The least device memory a join of {@code rows} build keys can run in: tables for the most partitions. */
    static long minimumAllowance(long rows) {
        return TABLE_SHARE * tableSlots(perPartition(rows, MAX_BITS)) * TUPLE_BYTES;
    }

    /** Keys a partition's table must hold: hashing spreads unique keys evenly, and a quarter more than the mean covers a partition's excess. */
    private static long perPartition(long rows, int bits) {
        return (rows >> bits) + (rows >> (bits + 2)) + 64;
    }

    /** How many partition bits a build side of {@code rows} keys needs so one partition's table takes at most {@code tableBytes}, or -1. */
    static int partitionBits(long rows, long tableBytes) {
        for (int bits = 1; bits <= MAX_BITS; bits++) {
            if (tableSlots(perPartition(rows, bits)) * TUPLE_BYTES <= tableBytes) {
                return bits;
            }
        }
        return -1;
    }

    /** Slots of a partition's table for {@code rows} keys: a power of two, at most half full. */
    static long tableSlots(long rows) {
        return Long.highestOneBit(Math.max(2, rows) * 2 - 1) << 1;
    }

    private Stats join(ProbeKeys probe, BuildKeys buildKeys, long allowance, DeviceBuffer matches) {
        device.makeCurrent();
        long tableBudget = allowance / TABLE_SHARE;
        int rows = buildKeys.rows();
        int bits = partitionBits(rows, tableBudget);
        if (bits < 0) {
            throw new GpuOutOfMemoryException("a partitioned join of " + rows + " build rows needs more than "
                    + (1 << MAX_BITS) + " partitions under " + allowance + " bytes of device memory");
        }
        int fanout = 1 << bits;
        long t0 = System.nanoTime();
        Cuda.check(JCudaDriver.cuMemsetD8(matches.pointer(), (byte) 0xFF, probe.rows() * 4), "cuMemsetD8");
        try (MappedHostBuffer build = new MappedHostBuffer(device, Math.max(8, rows * 8L));
             MappedHostBuffer buildNulls = new MappedHostBuffer(device, buildKeys.nulls() == null ? 1 : rows);
             DeviceBuffer counts = device.memory().allocate((long) fanout * grid * 4, "partition histogram");
             DeviceBuffer offsets = device.memory().allocate((long) fanout * grid * 8, "partition offsets")) {
            MemorySegment.copy(buildKeys.values(), 0, build.segment(), ValueLayout.JAVA_LONG, 0, rows);
            long buildFlags = 0;
            if (buildKeys.nulls() != null) {
                for (int r = 0; r < rows; r++) {
                    buildNulls.segment().set(ValueLayout.JAVA_BYTE, r, (byte) (buildKeys.nulls()[r] ? 1 : 0));
                }
                buildFlags = buildNulls.address();
            }
            long t1 = System.nanoTime();
            Histogram buildSide = histogram(build.address(), buildFlags, 8, rows, bits, counts);
            Histogram probeSide = histogram(probe.values(), probe.nulls(), probe.width(), probe.rows(), bits, counts);
            long buildBytes = buildSide.starts()[fanout] * TUPLE_BYTES;
            long probeBytes = probeSide.starts()[fanout] * TUPLE_BYTES;
            long left = Math.max(0, allowance - tableBudget - counts.bytes() - offsets.bytes());
            long t2 = System.nanoTime();
            // the probe side's partitions first: they come from device memory and are the larger side
            try (SpillBuffer probed = SpillBuffer.allocate(device, probeBytes, Math.min(left, probeBytes), "probe partitions");
                 SpillBuffer built = SpillBuffer.allocate(device, buildBytes, left - probed.deviceBytes(), "build partitions")) {
                long t3 = System.nanoTime();
                scatter(build.address(), buildFlags, 8, rows, bits, buildSide, offsets, built.address());
                scatter(probe.values(), probe.nulls(), probe.width(), probe.rows(), bits, probeSide, offsets, probed.address());
                device.synchronize("partitioning");
                long t4 = System.nanoTime();
                int batches = joinPartitions(bits, buildSide.starts(), built.address(), probeSide.starts(), probed.address(),
                        tableBudget, matches);
                long t5 = System.nanoTime();
                return new Stats(fanout, batches, built.hostBytes() + probed.hostBytes(), ms(t1 - t0 + t3 - t2),
                        ms(t2 - t1 + t4 - t3), ms(t5 - t4));
            }
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** Per block and partition (partition major), how many of the keys fall there; and where each partition starts, and at [fanout] the total. */
    private record Histogram(int[] perBlock, long[] starts) { }

    /** Runs partition_histogram over {@code rows} keys; {@code counts} is its scratch space. */
    private Histogram histogram(long keys, long nulls, int width, long rows, int bits, DeviceBuffer counts) {
        int fanout = 1 << bits;
        launch("partition_histogram", grid, THREADS, Pointer.to(new long[] {keys}), Pointer.to(new int[] {width}),
                Pointer.to(new long[] {nulls}), Pointer.to(new long[] {rows}), Pointer.to(new int[] {bits}),
                Pointer.to(counts.pointer()));
        int[] perBlock = new int[fanout * grid];
        counts.download(Pointer.to(perBlock), perBlock.length * 4L);
        long[] starts = new long[fanout + 1];
        long total = 0;
        for (int p = 0; p < fanout; p++) {
            starts[p] = total;
            for (int b = 0; b < grid; b++) {
                total += Integer.toUnsignedLong(perBlock[p * grid + b]);
            }
        }
        starts[fanout] = total;
        return new Histogram(perBlock, starts);
    }

    /** Writes the keys' tuples partition by partition at {@code out}, each block at its place by {@code h}. */
    private void scatter(long keys, long nulls, int width, long rows, int bits, Histogram h, DeviceBuffer offsets, long out) {
        long[] at = new long[h.perBlock().length];
        long total = 0;
        for (int i = 0; i < at.length; i++) {
            at[i] = total;
            total += Integer.toUnsignedLong(h.perBlock()[i]);
        }
        offsets.upload(Pointer.to(at), 0, at.length * 8L);
        launch("partition_scatter", grid, SCATTER_THREADS, Pointer.to(new long[] {keys}), Pointer.to(new int[] {width}),
                Pointer.to(new long[] {nulls}), Pointer.to(new long[] {rows}), Pointer.to(new int[] {bits}),
                Pointer.to(offsets.pointer()), Pointer.to(new long[] {out}));
    }

    /**
     * Joins the partition pairs in batches of as many consecutive partitions as {@code tableBudget}
     * holds tables for (one table size for all: the largest build partition's); returns the batches.
     */
    private int joinPartitions(int bits, long[] buildStarts, long built, long[] probeStarts, long probed, long tableBudget,
                               DeviceBuffer matches) {
        int fanout = 1 << bits;
        long largest = 0;
        for (int p = 0; p < fanout; p++) {
            largest = Math.max(largest, buildStarts[p + 1] - buildStarts[p]);
        }
        long slots = tableSlots(largest);
        int tableBits = Long.numberOfTrailingZeros(slots);
        long tableBytes = slots * TUPLE_BYTES;
        int perBatch = (int) Math.max(1, Math.min(fanout, tableBudget / tableBytes));
        int batches = 0;
        try (DeviceBuffer tables = device.memory().allocate(perBatch * tableBytes, "partition hash tables")) {
            for (int first = 0; first < fanout; first += perBatch) {
                int end = Math.min(fanout, first + perBatch);
                Cuda.check(JCudaDriver.cuMemsetD8(tables.pointer(), (byte) 0xFF, (end - first) * tableBytes), "cuMemsetD8");
                launchOver("build_partitions", buildStarts[first], buildStarts[end], built, bits, first, tables, tableBits);
                launchOver("probe_partitions", probeStarts[first], probeStarts[end], probed, bits, first, tables, tableBits,
                        Pointer.to(matches.pointer()));
                batches++;
            }
            device.synchronize("the partitioned join");
        }
        return batches;
    }

    /** Launches {@code kernel} over tuples [begin, end) of partitions {@code first}.. with their tables, then {@code more} parameters. */
    private void launchOver(String kernel, long begin, long end, long tuples, int bits, int first, DeviceBuffer tables,
                            int tableBits, Pointer... more) {
        if (end <= begin) {
            return;
        }
        int blocks = (int) Math.max(1, Math.min((end - begin + THREADS - 1) / THREADS, device.multiprocessors() * 8L));
        Pointer[] params = new Pointer[7 + more.length];
        params[0] = Pointer.to(new long[] {tuples});
        params[1] = Pointer.to(new long[] {begin});
        params[2] = Pointer.to(new long[] {end});
        params[3] = Pointer.to(new int[] {bits});
        params[4] = Pointer.to(new int[] {first});
        params[5] = Pointer.to(tables.pointer());
        params[6] = Pointer.to(new int[] {tableBits});
        System.arraycopy(more, 0, params, 7, more.length);
        launch(kernel, blocks, THREADS, params);
    }

    private void launch(String kernel, int blocks, int threads, Pointer... params) {
        CUfunction f = device.kernel(KERNELS, kernel);
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, null, Pointer.to(params), null),
                "launch of " + kernel);
    }
}
