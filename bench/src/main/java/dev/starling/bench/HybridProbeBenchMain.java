package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.gen.ZipfCodes;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.hybrid.SplitTable;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import jcuda.Pointer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The hybrid hash table's probe throughput as its GPU share A falls (Lutz's thesis §3.4.3): one table,
 * its first A of the slots in device memory and the rest in mapped pinned host memory, probed by
 * uniform or Zipf-skewed keys (half of them absent). Prints the probes per second measured and
 * the thesis' model A·G + (1−A)·C from the all-device (G) and all-host (C) runs, and the model
 * of time per probe adding up, 1 / (A/G + (1−A)/C).
 */
@Command(name = "starling-hybrid-probe-bench", mixinStandardHelpOptions = true,
        description = "Probes a hash table split between GPU and host memory and prints a table.")
public final class HybridProbeBenchMain implements Callable<Integer> {

    @Option(names = "--keys", description = "Keys in the table (default: ${DEFAULT-VALUE}).")
    private int keys = 1 << 24;

    @Option(names = "--probes", description = "Probe keys (default: ${DEFAULT-VALUE}).")
    private int probes = 1 << 25;

    @Option(names = "--share", split = ",", description = "GPU shares of the table (default: ${DEFAULT-VALUE}).")
    private List<Double> shares = List.of(1.0, 0.75, 0.5, 0.25, 0.0);

    @Option(names = "--theta", split = ",", description = "Zipf exponents of the probes (default: ${DEFAULT-VALUE}).")
    private List<Double> thetas = List.of(0.0, 1.0);

    @Option(names = "--runs", description = "Timed runs after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 3;

    @Option(names = "--layout", description = "CONTIGUOUS (one range, where the driver allows) or TWO_RANGES "
            + "(default: ${DEFAULT-VALUE}).")
    private SplitTable.Layout layout = SplitTable.Layout.CONTIGUOUS;

    public static void main(String[] args) {
        System.exit(new CommandLine(new HybridProbeBenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long[] tableKeys = new SplittableRandom(1).longs(keys).toArray();
        DimensionHashTable table = DimensionHashTable.build(Vector.ofLongs(DataType.BIGINT, tableKeys, null), keys)
                .orElseThrow(() -> new IllegalStateException("random keys repeated"));
        long tableBytes = table.slots().length * 8L;
        try (GpuDevice device = GpuDevice.open(0, 0);
             DeviceBuffer probeKeys = device.memory().allocate(8L * probes, "probe keys");
             DeviceBuffer hits = device.memory().allocate(8, "hits")) {
            System.out.printf("%s; table %d keys, %d MB, %s; %d probes; median of %d runs; Java %s%n%n",
                    device.describe(), keys, tableBytes >> 20, layout, probes, runs, System.getProperty("java.version"));
            List<List<Object>> out = new ArrayList<>();
            for (double theta : thetas) {
                probeKeys.upload(Pointer.to(probeKeys(tableKeys, theta)), 0, 8L * probes);
                double[] rate = new double[shares.size()];
                long[] found = new long[shares.size()];
                for (int i = 0; i < shares.size(); i++) {
                    int at = i;
                    try (SplitTable split = SplitTable.place(device, table.slots(), table.shift(),
                            (long) Math.floor(shares.get(i) * tableBytes), layout)) {
                        double ms = new WarmTimer(runs).medianMillis(() -> found[at] = split.count(probeKeys, probes, hits));
                        rate[i] = probes / ms / 1e3;
                    }
                }
                double g = rateAt(1.0, rate);
                double c = rateAt(0.0, rate);
                for (int i = 0; i < shares.size(); i++) {
                    double a = shares.get(i);
                    out.add(List.of(theta, a, rate[i], a * g + (1 - a) * c, 1 / (a / g + (1 - a) / c), found[i]));
                }
            }
            System.out.print(new QueryResult(List.of(
                    new Field("theta", DataType.DOUBLE, false),
                    new Field("gpu_share", DataType.DOUBLE, false),
                    new Field("Mprobes_s", DataType.DOUBLE, false),
                    new Field("model_linear", DataType.DOUBLE, false),
                    new Field("model_time", DataType.DOUBLE, false),
                    new Field("hits", DataType.BIGINT, false)), out).toText());
        }
        return 0;
    }

    /** Probe keys: table keys chosen by Zipf rank, every other one changed into a key the table lacks. */
    private long[] probeKeys(long[] tableKeys, double theta) {
        int[] ranks = ZipfCodes.generate(probes, tableKeys.length, theta, 7, ZipfCodes.Ranks.SHUFFLED);
        long[] out = new long[probes];
        for (int i = 0; i < probes; i++) {
            out[i] = (i & 1) == 0 ? tableKeys[ranks[i]] : ~tableKeys[ranks[i]];
        }
        return out;
    }

    private double rateAt(double share, double[] rate) {
        int i = shares.indexOf(share);
        return i < 0 ? Double.NaN : rate[i];
    }
}
