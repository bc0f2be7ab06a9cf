package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.storage.gen.ZipfCodes;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.hybrid.PartitionedJoin;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import jcuda.Pointer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The partitioned join (Triton join) alone, phase by phase, beside each phase's floor: the bytes
 * it must move over the link and through device memory at their measured rates. Build keys are
 * unique; probe keys are build keys chosen by Zipf rank, so every probe matches; the matches are
 * checked against the keys. Where the time of the first pass, the second pass with the join, and
 * pinning the build keys goes, as the device memory allowed shrinks.
 */
@Command(name = "starling-partitioned-join-bench", mixinStandardHelpOptions = true,
        description = "Runs the GPU partitioned join under several allowances and prints a table.")
public final class PartitionedJoinBenchMain implements Callable<Integer> {

    @Option(names = "--build-rows", description = "Build keys (default: ${DEFAULT-VALUE}).")
    private int buildRows = 1 << 24;

    @Option(names = "--probe-rows", description = "Probe keys (default: ${DEFAULT-VALUE}).")
    private int probeRows = 25_165_824;

    @Option(names = "--allowance-mb", split = ",", description = "Device memory allowed, MB (default: ${DEFAULT-VALUE}).")
    private List<Long> allowances = List.of(28L, 156L, 2048L);

    @Option(names = "--theta", split = ",", description = "Zipf exponents of the probes (default: ${DEFAULT-VALUE}).")
    private List<Double> thetas = List.of(0.0, 1.0);

    @Option(names = "--runs", description = "Timed runs after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 3;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PartitionedJoinBenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long[] build = new SplittableRandom(1).longs(buildRows * 2L).distinct().limit(buildRows).toArray();
        PartitionedJoin.BuildKeys buildKeys = new PartitionedJoin.BuildKeys(build, null, buildRows);
        List<List<Object>> out = new ArrayList<>();
        try (GpuDevice device = GpuDevice.open(0, 0);
             DeviceBuffer probeKeys = device.memory().allocate(8L * probeRows, "probe keys");
             DeviceBuffer matches = device.memory().allocate(4L * probeRows, "matches")) {
            System.out.printf("%s; %d build keys, %d probe keys; median of %d runs; link %.0f GB/s, device memory "
                            + "%.0f GB/s; Java %s%n%n", device.describe(), buildRows, probeRows, runs,
                    device.profile().linkBytesPerSecond() / 1e9, device.profile().deviceBytesPerSecond() / 1e9,
                    System.getProperty("java.version"));
            for (double theta : thetas) {
                int[] ranks = ZipfCodes.generate(probeRows, buildRows, theta, 7, ZipfCodes.Ranks.SHUFFLED);
                long[] probe = new long[probeRows];
                for (int i = 0; i < probeRows; i++) {
                    probe[i] = build[ranks[i]];
                }
                probeKeys.upload(Pointer.to(probe), 0, 8L * probeRows);
                for (long mb : allowances) {
                    List<PartitionedJoin.Stats> stats = new ArrayList<>();
                    double ms = new WarmTimer(runs).medianMillis(() -> stats.add(PartitionedJoin.run(device,
                            new PartitionedJoin.ProbeKeys(probeKeys.address(), 0, 8, probeRows), buildKeys, mb << 20,
                            matches)));
                    stats.remove(0);
                    PartitionedJoin.Stats s = stats.get(0);
                    boolean correct = check(matches, ranks);
                    double spilled = s.spilledBytes();
                    double resident = 16.0 * (probeRows + buildRows) - spilled;
                    double firstFloor = ms(device.profile(), 16.0 * buildRows + spilled, 16.0 * probeRows + resident);
                    double secondFloor = ms(device.profile(), 2 * spilled, 2 * resident + 32.0 * (probeRows + buildRows) + 4.0 * probeRows);
                    out.add(List.of(theta, (double) mb, (long) s.partitions(), (long) s.subpartitions(), (long) s.batches(),
                            spilled / 1e6, median(stats, PartitionedJoin.Stats::hostMillis),
                            median(stats, PartitionedJoin.Stats::partitionMillis), firstFloor,
                            median(stats, PartitionedJoin.Stats::joinMillis), secondFloor, ms,
                            (probeRows + buildRows) / ms / 1e3, correct));
                }
            }
        }
        System.out.print(new QueryResult(List.of(
                new Field("theta", DataType.DOUBLE, false),
                new Field("allowance_MB", DataType.DOUBLE, false),
                new Field("partitions", DataType.BIGINT, false),
                new Field("subpartitions", DataType.BIGINT, false),
                new Field("batches", DataType.BIGINT, false),
                new Field("spilled_MB", DataType.DOUBLE, false),
                new Field("pin_ms", DataType.DOUBLE, false),
                new Field("pass1_ms", DataType.DOUBLE, false),
                new Field("pass1_floor_ms", DataType.DOUBLE, false),
                new Field("pass2_join_ms", DataType.DOUBLE, false),
                new Field("pass2_join_floor_ms", DataType.DOUBLE, false),
                new Field("total_ms", DataType.DOUBLE, false),
                new Field("Mtuples_s", DataType.DOUBLE, false),
                new Field("correct", DataType.BOOLEAN, false)), out).toText());
        return 0;
    }

    /** Milliseconds to move {@code link} bytes over the link and {@code device} bytes through device memory, one after the other. */
    private static double ms(DeviceProfile rates, double link, double device) {
        return (link / rates.linkBytesPerSecond() + device / rates.deviceBytesPerSecond()) * 1e3;
    }

    private static double median(List<PartitionedJoin.Stats> stats, ToDoubleFunction<PartitionedJoin.Stats> f) {
        return WarmTimer.median(stats.stream().mapToDouble(f).toArray());
    }

    /** Whether every probe row found the build row of its rank. */
    private boolean check(DeviceBuffer matches, int[] ranks) {
        int[] found = new int[probeRows];
        matches.download(Pointer.to(found), 4L * probeRows);
        for (int i = 0; i < probeRows; i++) {
            if (found[i] != ranks[i]) {
                return false;
            }
        }
        return true;
    }
}
