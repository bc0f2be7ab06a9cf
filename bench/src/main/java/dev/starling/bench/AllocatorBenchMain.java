package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.DoubleSupplier;
import jcuda.Pointer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The two dynamic structures of the seeds against what the engine does, on the GPU. Joins whose
 * output size is unknown (each probe row matches 0 to 2f build rows): written through one atomic
 * bump counter (the engine's reservePlace) with enough room, with half the room (the engine's
 * second run), counted first and written second, or into pages of seed 000's pool: owned by a
 * thread (the paper's case study) and taken by RW-BM or CoRW, or owned by a warp and taken by RW-BM
 * or from a bump counter, at several page sizes and shares of the pool free. Group-by of COUNT(*)
 * and SUM by a 64-bit id over G groups: the engine's open-addressing table sized for as many
 * groups as rows (what it does when it does not know better) or for G, against seed 001's slab
 * hash with its buckets sized for G or for G/64 (a bad estimate it must grow past). Every result is
 * checked against sums computed on the host.
 */
@Command(name = "starling-allocator-bench", mixinStandardHelpOptions = true,
        description = "Times join output through page allocators and group-by through a slab hash on the GPU.")
public final class AllocatorBenchMain implements Callable<Integer> {
    private static final int THREADS = 256;

    @Option(names = "--probe-rows", description = "Probe rows of the join (default: ${DEFAULT-VALUE}).")
    private int probeRows = 32 << 20;

    @Option(names = "--fanout", split = ",", description = "Mean matches per probe row (default: ${DEFAULT-VALUE}).")
    private List<Integer> fanouts = List.of(1, 4);

    @Option(names = "--page-bytes", split = ",", description = "Page sizes (default: ${DEFAULT-VALUE}).")
    private List<Integer> pageSizes = List.of(512, 4096, 16384);

    @Option(names = "--free", split = ",", description = "Shares of the pool free before the join (default: ${DEFAULT-VALUE}).")
    private List<Double> freeShares = List.of(1.0, 0.25);

    @Option(names = "--group-rows", description = "Rows of the group-by (default: ${DEFAULT-VALUE}).")
    private int groupRows = 64 << 20;

    @Option(names = "--groups", split = ",", description = "Groups (default: ${DEFAULT-VALUE}).")
    private List<Integer> groupCounts = List.of(1_000, 1_000_000, 16_000_000);

    @Option(names = "--runs", description = "Timed runs after one warm-up; medians shown (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    private GpuDevice device;
    private BenchKernels kernels;
    private int blocks;
    private boolean allRight = true;

    public static void main(String[] args) {
        System.exit(new CommandLine(new AllocatorBenchMain()).execute(args));
    }

    @Override
    public Integer call() {
        try (GpuDevice d = GpuDevice.open(0, 0)) {
            device = d;
            blocks = device.multiprocessors() * 8;
            try (BenchKernels k = new BenchKernels(device, List.of("page_pool.cuh", "slab_hash.cuh"),
                    "allocator_bench.cu")) {
                kernels = k;
                double bandwidth = DeviceBandwidth.measure(device, 1L << 30, 5);
                System.out.printf("%s; device bandwidth %.0f GB/s; median of %d runs; Java %s%n%n", device.describe(),
                        bandwidth / 1e9, runs, System.getProperty("java.version"));
                for (int fanout : fanouts) {
                    join(fanout, bandwidth);
                }
                groups();
            }
        }
        System.out.println(allRight ? "every result checked" : "SOME RESULTS WRONG");
        return allRight ? 0 : 1;
    }

    // ---- join output ----

    private void join(int fanout, double bandwidth) {
        SplittableRandom random = new SplittableRandom(7);
        int keys = probeRows;
        int[] probe = new int[probeRows];
        for (int i = 0; i < probeRows; i++) {
            probe[i] = random.nextInt(keys);
        }
        long[] offsets = new long[keys + 1];
        for (int k = 0; k < keys; k++) {
            offsets[k + 1] = offsets[k] + random.nextInt(2 * fanout + 1);
        }
        long[] expected = new long[3];
        for (int i = 0; i < probeRows; i++) {
            long from = offsets[probe[i]];
            long m = offsets[probe[i] + 1] - from;
            expected[0] += m;
            expected[1] += i * m;
            expected[2] += m * from + m * (m - 1) / 2;
        }
        long count = expected[0];
        // the probe keys read once, a 32-byte sector of offsets per probe row, 16 bytes per output row written
        double floor = (probeRows * 36.0 + count * 16.0) / bandwidth * 1e3;
        System.out.printf("join: %,d probe rows, %,d output rows (fan-out %d); floor %.2f ms (4 B of key and a "
                + "32 B sector of offsets read per probe row, 16 B written per output row)%n", probeRows, count, fanout,
                floor);
        List<List<Object>> table = new ArrayList<>();
        try (DeviceBuffer probeBuf = upload(probe);
             DeviceBuffer offsetBuf = upload(offsets);
             DeviceBuffer out0 = device.memory().allocate(count * 8, "output 0");
             DeviceBuffer out1 = device.memory().allocate(count * 8, "output 1");
             DeviceBuffer counter = device.memory().allocate(8, "counter");
             DeviceBuffer blockCounts = device.memory().allocate((blocks + 1) * 8L, "block counts");
             DeviceBuffer sums = device.memory().allocate(24, "sums")) {
            double bump = median(() -> {
                counter.clear();
                return kernels.time("joinBump", blocks, THREADS, probeBuf, (long) probeRows, offsetBuf, out0, out1,
                        counter, count);
            });
            table.add(List.of("bump, room for all", 0L, 1.0, bump, bump / floor,
                    checkColumns(out0, out1, count, sums, expected)));
            double twice = median(() -> {
                counter.clear();
                double first = kernels.time("joinBump", blocks, THREADS, probeBuf, (long) probeRows, offsetBuf, out0,
                        out1, counter, count / 2);
                counter.clear();
                return first + kernels.time("joinBump", blocks, THREADS, probeBuf, (long) probeRows, offsetBuf, out0,
                        out1, counter, count);
            });
            table.add(List.of("bump, room for half, run again", 0L, 1.0, twice, twice / floor,
                    checkColumns(out0, out1, count, sums, expected)));
            double counted = median(() -> kernels.time("joinCount", blocks, THREADS, probeBuf, (long) probeRows,
                    offsetBuf, blockCounts)
                    + kernels.time("scanCounts", 1, THREADS, blockCounts, blocks)
                    + kernels.time("joinWrite", blocks, THREADS, probeBuf, (long) probeRows, offsetBuf, out0, out1,
                    blockCounts));
            table.add(List.of("count, then write", 0L, 1.0, counted, counted / floor,
                    checkColumns(out0, out1, count, sums, expected)));
            for (int pageBytes : pageSizes) {
                for (Paging paging : Paging.values()) {
                    for (double free : paging.pool ? freeShares : List.of(1.0)) {
                        if (paging.perWarp && pageBytes / 16 < 128) {
                            continue;
                        }
                        Timed t = pages(paging, pageBytes, free, probeBuf, offsetBuf, count, counter, sums, expected);
                        table.add(List.of(paging.label, (long) pageBytes, free, t.ms(), t.ms() / floor, t.check()));
                    }
                }
            }
        }
        System.out.println(new QueryResult(List.of(
                new Field("method", DataType.VARCHAR, false),
                new Field("page_bytes", DataType.BIGINT, false),
                new Field("pool_free", DataType.DOUBLE, false),
                new Field("ms", DataType.DOUBLE, false),
                new Field("x_floor", DataType.DOUBLE, false),
                new Field("check", DataType.VARCHAR, false)), table).toText());
    }

    private record Timed(double ms, String check) { }

    /** Who owns a page and where it comes from. */
    private enum Paging {
        THREAD_RWBM("pages per thread, RW-BM", "joinPagesRwbm", false, true),
        THREAD_CORW("pages per thread, CoRW", "joinPagesCorw", false, true),
        WARP_BUMP("pages per warp, bump", "joinWarpPagesBump", true, false),
        WARP_RWBM("pages per warp, RW-BM", "joinWarpPagesRwbm", true, true);

        final String label;
        final String entry;
        final boolean perWarp;
        final boolean pool;

        Paging(String label, String entry, boolean perWarp, boolean pool) {
            this.label = label;
            this.entry = entry;
            this.perWarp = perWarp;
            this.pool = pool;
        }
    }

    /**
     * Runs a paged join into a pool of which share {@code free} is free (a bump counter's pages
     * are all marked used, so that the check reads them); its median time.
     */
    private Timed pages(Paging paging, int pageBytes, double free, DeviceBuffer probe, DeviceBuffer offsets, long count,
                        DeviceBuffer counter, DeviceBuffer sums, long[] expected) {
        int perPage = pageBytes / 16;
        // every thread (warp) may leave one page part-filled; a warp leaves a page with up to 31 rows free
        long needed = paging.perWarp ? count / (perPage - 31) + (long) blocks * (THREADS / 32) + 1
                : (count + perPage - 1) / perPage + (long) blocks * THREADS;
        long pages = ((long) Math.ceil(needed * 1.05 / free) + 31) / 32 * 32;
        int words = (int) (pages / 32);
        int[] used = new int[words];
        SplittableRandom random = new SplittableRandom(11);
        for (long p = 0; p < pages; p++) {
            if (!paging.pool || random.nextDouble() >= free) {
                used[(int) (p >>> 5)] |= 1 << (p & 31);
            }
        }
        try (DeviceBuffer pool = device.memory().allocate(pages * pageBytes, "page pool");
             DeviceBuffer bitmap = device.memory().allocate(words * 4L, "page bitmap");
             DeviceBuffer pageRows = device.memory().allocate(pages * 4, "page rows");
             DeviceBuffer status = device.memory().allocate(4, "status")) {
            double ms = median(() -> {
                bitmap.upload(Pointer.to(used), 0, words * 4L);
                pageRows.fill((byte) 0xff, pages * 4);
                status.clear();
                counter.clear();
                return paging.perWarp
                        ? kernels.time(paging.entry, blocks, THREADS, probe, (long) probeRows, offsets, pool, perPage,
                                bitmap, words, counter, pageRows, status)
                        : kernels.time(paging.entry, blocks, THREADS, probe, (long) probeRows, offsets, pool, perPage,
                                bitmap, words, pageRows, status);
            });
            int[] failed = new int[1];
            status.download(Pointer.to(failed), 4);
            sums.clear();
            kernels.time("checksumPages", blocks, THREADS, pool, perPage, bitmap, pages, pageRows, sums);
            return new Timed(ms, failed[0] != 0 ? "POOL EMPTY" : check(sums, expected));
        }
    }

    private String checkColumns(DeviceBuffer out0, DeviceBuffer out1, long count, DeviceBuffer sums, long[] expected) {
        sums.clear();
        kernels.time("checksumColumns", blocks, THREADS, out0, out1, count, sums);
        return check(sums, expected);
    }

    // ---- group-by ----

    private void groups() {
        long n = groupRows;
        long valueSum = 0;
        for (long i = 0; i < n; i++) {
            valueSum += i & 1023;
        }
        System.out.printf("group-by: COUNT(*), SUM(v) of %,d rows by a 64-bit id%n", n);
        List<List<Object>> table = new ArrayList<>();
        try (DeviceBuffer ids = device.memory().allocate(n * 8, "group ids");
             DeviceBuffer sums = device.memory().allocate(24, "sums")) {
            for (int g : groupCounts) {
                kernels.time("makeGroups", blocks, THREADS, ids, n, (long) g);
                long[] reference = open(table, g, "open addressing, slots for every row", tableSlots(n), ids, sums,
                        null, valueSum);
                open(table, g, "open addressing, slots for G", tableSlots(g), ids, sums, reference, valueSum);
                slab(table, g, "slab hash, buckets for G", g, ids, sums, reference, valueSum);
                slab(table, g, "slab hash, buckets for G/64", Math.max(1, g / 64), ids, sums, reference, valueSum);
            }
        }
        System.out.println(new QueryResult(List.of(
                new Field("groups", DataType.BIGINT, false),
                new Field("method", DataType.VARCHAR, false),
                new Field("init_ms", DataType.DOUBLE, false),
                new Field("kernel_ms", DataType.DOUBLE, false),
                new Field("scan_ms", DataType.DOUBLE, false),
                new Field("total_ms", DataType.DOUBLE, false),
                new Field("MB", DataType.DOUBLE, false),
                new Field("check", DataType.VARCHAR, false)), table).toText());
    }

    /** Group-by through the engine's table of {@code slots} slots; the groups, counts and sums it found. */
    private long[] open(List<List<Object>> table, int g, String method, long slots, DeviceBuffer ids, DeviceBuffer sums,
                        long[] reference, long valueSum) {
        int shift = Long.numberOfLeadingZeros(slots) + 1;
        try (DeviceBuffer keys = device.memory().allocate(slots * 8, "group keys");
             DeviceBuffer states = device.memory().allocate(slots * 16, "group states");
             DeviceBuffer status = device.memory().allocate(4, "status")) {
            double[][] times = phases(
                    () -> kernels.time(() -> {
                        keys.fill((byte) 0xff, slots * 8);
                        states.clear();
                        status.clear();
                    }),
                    () -> kernels.time("groupOpen", blocks, THREADS, ids, (long) groupRows, keys, shift, states, status),
                    () -> {
                        sums.clear();
                        return kernels.time("scanOpen", blocks, THREADS, keys, slots, states, sums);
                    });
            long[] found = download(sums);
            table.add(List.of((long) g, method, median(times[0]), median(times[1]), median(times[2]),
                    median(times[0]) + median(times[1]) + median(times[2]), slots * 24 / 1e6,
                    checkGroups(found, reference, valueSum)));
            return found;
        }
    }

    /** Group-by through a slab hash whose buckets hold about twice {@code estimate} groups in their first slabs. */
    private void slab(List<List<Object>> table, int g, String method, long estimate, DeviceBuffer ids, DeviceBuffer sums,
                      long[] reference, long valueSum) {
        long buckets = Long.highestOneBit(Math.max(64, (estimate + 15) / 16) * 2 - 1);
        int shift = Long.numberOfLeadingZeros(buckets) + 1;
        // room for every row to be a group of its own: the pool is reserved, not written, until used
        long pages = ((groupRows + 30) / 31 + buckets + 31) / 32 * 32;
        long slabBytes = 256;
        long stateBytes = 31 * 16;
        try (DeviceBuffer slabs = device.memory().allocate((buckets + pages) * slabBytes, "slabs");
             DeviceBuffer states = device.memory().allocate((buckets + pages) * stateBytes, "slab states");
             DeviceBuffer used = device.memory().allocate(pages / 8, "slab bitmap");
             DeviceBuffer status = device.memory().allocate(4, "status")) {
            double[][] times = phases(
                    () -> kernels.time(() -> {
                        slabs.fill((byte) 0xff, buckets * slabBytes);
                        states.fill((byte) 0, buckets * stateBytes);
                        used.clear();
                        status.clear();
                    }),
                    () -> kernels.time("groupSlab", blocks, THREADS, ids, (long) groupRows, slabs, shift, used,
                            (int) (pages / 32), states, status),
                    () -> {
                        sums.clear();
                        return kernels.time("scanSlab", blocks, THREADS, slabs, buckets, pages, used, states, sums);
                    });
            int[] failed = new int[1];
            status.download(Pointer.to(failed), 4);
            int[] bits = new int[(int) (pages / 32)];
            used.download(Pointer.to(bits), pages / 8);
            long taken = Arrays.stream(bits).mapToLong(Integer::bitCount).sum();
            table.add(List.of((long) g, method, median(times[0]), median(times[1]), median(times[2]),
                    median(times[0]) + median(times[1]) + median(times[2]),
                    (buckets + taken) * (slabBytes + stateBytes) / 1e6,
                    failed[0] != 0 ? "POOL EMPTY" : checkGroups(download(sums), reference, valueSum)));
        }
    }

    private String checkGroups(long[] found, long[] reference, long valueSum) {
        boolean right = found[1] == groupRows && found[2] == valueSum && (reference == null || found[0] == reference[0]);
        allRight &= right;
        return right ? "ok" : "WRONG " + Arrays.toString(found);
    }

    /** Runs the phases in order once to warm up and then {@link #runs} times; each phase's times. */
    private double[][] phases(DoubleSupplier... phases) {
        double[][] times = new double[phases.length][runs];
        for (int r = -1; r < runs; r++) {
            for (int p = 0; p < phases.length; p++) {
                double ms = phases[p].getAsDouble();
                if (r >= 0) {
                    times[p][r] = ms;
                }
            }
        }
        return times;
    }

    private double median(DoubleSupplier run) {
        return median(phases(run)[0]);
    }

    private static double median(double[] times) {
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** The engine's group table size for at most {@code groups} groups (AggregateKernel.tableSlots). */
    private static long tableSlots(long groups) {
        return Long.highestOneBit(Math.max(512, groups) * 2 - 1) << 1;
    }

    private String check(DeviceBuffer sums, long[] expected) {
        long[] got = download(sums);
        boolean right = Arrays.equals(got, expected);
        allRight &= right;
        return right ? "ok" : "WRONG " + Arrays.toString(got) + " expected " + Arrays.toString(expected);
    }

    private static long[] download(DeviceBuffer sums) {
        long[] got = new long[3];
        sums.download(Pointer.to(got), 24);
        return got;
    }

    private DeviceBuffer upload(int[] values) {
        DeviceBuffer b = device.memory().allocate(values.length * 4L, "bench input");
        b.upload(Pointer.to(values), 0, values.length * 4L);
        return b;
    }

    private DeviceBuffer upload(long[] values) {
        DeviceBuffer b = device.memory().allocate(values.length * 8L, "bench input");
        b.upload(Pointer.to(values), 0, values.length * 8L);
        return b;
    }
}
