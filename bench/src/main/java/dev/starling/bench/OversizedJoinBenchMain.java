package dev.starling.bench;

import dev.starling.exec.run.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.Field;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.plan.PlanNode;
import dev.starling.gpu.GpuBackend;
import dev.starling.storage.gen.ZipfCodes;
import dev.starling.gpu.hybrid.OversizedJoinModel;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.gpu.pipeline.RunStats;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Join throughput as the hash table grows past the device memory budget: {@code SELECT COUNT(*),
 * SUM(f.amt), SUM(h.w) FROM f JOIN h ON f.k = h.code} (a join on values: a hashed dimension), the
 * probe keys uniform or Zipf-skewed over the build keys (one in sixteen misses). The budget is set
 * so that the table is {@code ratio} times the device memory left for it beside the fact columns
 * and the dimension's arrays; at each ratio the join runs hybrid and partitioned (host-only where no
 * device memory is left for the table), against the table in device memory (a budget that holds
 * it) and the CPU backend. Prints the
 * median query time (which includes building the dimension on the CPU, the same for every GPU
 * placement), the join's time on the GPU: copying the table and probing it in the fused kernel, or
 * partitioning, joining and the kernel reading the matches; tuples (probe + build) per second of
 * that, its share of the in-GPU throughput, the model's prediction, the bytes left in or spilled to
 * host memory, the share of the fact rows the GPU ran (below 1 when it shares them with the CPU
 * workers: {@code --backend both}, placements marked "+cpu") and whether the answer equals the CPU's.
 */
@Command(name = "starling-oversized-join-bench", mixinStandardHelpOptions = true,
        description = "Times hash joins past the GPU memory budget and prints a table.")
public final class OversizedJoinBenchMain implements Callable<Integer> {
    private static final String SQL = "SELECT COUNT(*), SUM(f.amt), SUM(h.w) FROM f JOIN h ON f.k = h.code";
    /** Bytes the run allocates besides the fact columns, the contributions and the join (descriptors, states). */
    private static final long SLACK = 1 << 20;

    @Option(names = "--fact-rows", description = "Probe (fact) rows (default: ${DEFAULT-VALUE}).")
    private int factRows = 1 << 25;

    @Option(names = "--build-rows", description = "Build (dimension) rows (default: ${DEFAULT-VALUE}).")
    private int buildRows = 1 << 22;

    @Option(names = "--ratio", split = ",", description = "Table bytes over the device memory left for it; "
            + "Infinity: none left, the table on the host (default: ${DEFAULT-VALUE}).")
    private List<Double> ratios = List.of(0.5, 1.5, 2.0, 4.0);

    @Option(names = "--theta", split = ",", description = "Zipf exponents of the probe keys (default: ${DEFAULT-VALUE}).")
    private List<Double> thetas = List.of(0.0, 1.0);

    @Option(names = "--runs", description = "Timed runs after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 3;

    @Option(names = "--backend", split = ",", description = "Backends for the GPU placements: gpu (alone), both "
            + "(sharing the fact rows with the CPU workers) (default: ${DEFAULT-VALUE}).")
    private List<BackendMode> backends = List.of(BackendMode.GPU);

    public static void main(String[] args) {
        System.exit(new CommandLine(new OversizedJoinBenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() {
        int cores = Runtime.getRuntime().availableProcessors();
        long tableBytes = DimensionHashTable.bytesFor(buildRows);
        long factBytes = factRows * 12L;
        List<List<Object>> out = new ArrayList<>();
        String device = null;
        for (double theta : thetas) {
            Catalog catalog = Catalog.inMemory();
            data(catalog, theta);
            PlanNode plan = new SqlPlanner(catalog).plan(SQL).plan();
            QueryResult expected;
            try (Executor cpu = new Executor(cores, catalog)) {
                expected = cpu.collect(plan);
                double ms = median(() -> cpu.collect(plan));
                out.add(row(theta, "cpu (" + cores + " cores)", Double.NaN, ms, null, Double.NaN, Double.NaN, Double.NaN,
                        true));
            }
            double inGpu = Double.NaN;
            try (GpuBackend gpu = open(0)) {
                device = gpu.device().describe();
                for (BackendMode backend : backends) {
                    Run r = measure(gpu, catalog, plan, backend, Settings.OversizedJoin.AUTO, expected);
                    inGpu = Double.isNaN(inGpu) ? joinMillis(r.stats) : inGpu;
                    out.add(row(theta, label("in-GPU", backend), Double.NaN, r.ms, r.stats, joinMillis(r.stats),
                            inGpu / joinMillis(r.stats), Double.NaN, r.equal));
                }
            }
            for (double ratio : ratios) {
                long left = (long) (tableBytes / ratio);
                // beside the fact columns: the dimension's group contributions and its column w (values, NULL flags)
                long budget = factBytes + (4L + 9L) * buildRows + left + SLACK;
                double share = Math.min(1, (double) left / tableBytes);
                try (GpuBackend gpu = open(budget)) {
                    for (BackendMode backend : backends) {
                        // with no device memory left the table lives on the host and a partitioned join cannot run
                        List<Settings.OversizedJoin> modes = left == 0 ? List.of(Settings.OversizedJoin.HYBRID)
                                : List.of(Settings.OversizedJoin.HYBRID, Settings.OversizedJoin.PARTITIONED);
                        for (Settings.OversizedJoin mode : modes) {
                            Run r = measure(gpu, catalog, plan, backend, mode, expected);
                            OversizedJoinModel predicted = new OversizedJoinModel(gpu.device().profile());
                            double model = mode == Settings.OversizedJoin.HYBRID
                                    ? factRows / predicted.hybridProbes(share) * 1e3
                                    : predicted.partitionedSeconds(factRows, buildRows, left) * 1e3;
                            double join = joinMillis(r.stats);
                            String placement = left == 0 ? "host-only" : mode.name().toLowerCase();
                            out.add(row(theta, label(placement, backend), ratio, r.ms, r.stats, join,
                                    inGpu / join, model, r.equal));
                        }
                    }
                }
            }
        }
        System.out.printf("%s; %d probe rows, %d build rows, table %d MB; median of %d runs; Java %s%n%n", device,
                factRows, buildRows, tableBytes >> 20, runs, System.getProperty("java.version"));
        System.out.print(new QueryResult(List.of(
                new Field("theta", DataType.DOUBLE, false),
                new Field("placement", DataType.VARCHAR, false),
                new Field("ratio", DataType.DOUBLE, true),
                new Field("query_ms", DataType.DOUBLE, false),
                new Field("join_ms", DataType.DOUBLE, true),
                new Field("kernel_ms", DataType.DOUBLE, true),
                new Field("Mtuples_s", DataType.DOUBLE, false),
                new Field("of_in_gpu", DataType.DOUBLE, true),
                new Field("model_join_ms", DataType.DOUBLE, true),
                new Field("host_MB", DataType.DOUBLE, true),
                new Field("gpu_rows", DataType.DOUBLE, true),
                new Field("equal", DataType.BOOLEAN, false)), out).toText());
        return 0;
    }

    private record Run(double ms, RunStats stats, boolean equal) { }

    /** A GPU placement's name, with "+cpu" when the GPU shares the fact rows with the CPU workers. */
    private static String label(String placement, BackendMode backend) {
        return backend == BackendMode.BOTH ? placement + "+cpu" : placement;
    }

    private Run measure(GpuBackend gpu, Catalog catalog, PlanNode plan, BackendMode backend, Settings.OversizedJoin mode,
                        QueryResult expected) {
        Settings settings = Settings.DEFAULT.withBackend(backend).with("oversized_join", mode.name());
        QueryContext ctx = new QueryContext(settings);
        PipelineGraph graph = PipelineGraph.of(plan, gpu.planner(catalog), settings);
        try (Executor withGpu = new Executor(Runtime.getRuntime().availableProcessors(), catalog, gpu)) {
            long before = gpu.runs();
            boolean equal = withGpu.collect(graph, ctx).rows().toString().equals(expected.rows().toString());
            double ms = median(() -> withGpu.collect(graph, ctx));
            if (gpu.runs() - before != runs + 1) {
                throw new IllegalStateException(mode + ": the join did not run on the GPU every time");
            }
            return new Run(ms, gpu.lastRun(), equal);
        }
    }

    /** The join's time on the GPU: placing the table (or partitioning and joining) and the kernel. */
    private static double joinMillis(RunStats s) {
        return s.tableMillis() + s.kernelMillis();
    }

    /** A result row; throughput from {@code joinMs}, or from {@code ms} (the CPU's whole query) when that is NaN. */
    private List<Object> row(double theta, String placement, double ratio, double ms, RunStats s, double joinMs,
                             double ofInGpu, double model, boolean equal) {
        double host = s == null ? Double.NaN : (s.hostTableBytes() + s.spilledBytes()) / 1e6;
        List<Object> r = new ArrayList<>();
        r.add(theta);
        r.add(placement);
        r.add(Double.isNaN(ratio) ? null : ratio);
        r.add(ms);
        r.add(Double.isNaN(joinMs) ? null : joinMs);
        r.add(s == null ? null : s.kernelMillis());
        r.add((factRows + (double) buildRows) / (Double.isNaN(joinMs) ? ms : joinMs) / 1e3);
        r.add(Double.isNaN(ofInGpu) ? null : ofInGpu);
        r.add(Double.isNaN(model) ? null : model);
        r.add(Double.isNaN(host) ? null : host);
        r.add(s == null ? null : (double) s.gpuChunks() / ((factRows + Table.CHUNK_ROWS - 1) / Table.CHUNK_ROWS));
        r.add(equal);
        return r;
    }

    private double median(Runnable query) {
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            query.run();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        return WarmTimer.median(ms);
    }

    private static GpuBackend open(long budget) {
        return GpuBackend.detect(0, budget).orElseThrow(() -> new IllegalStateException("no GPU: this benchmark runs on the GPU host"));
    }

    /** h: build keys 7r + 3 (no foreign key, so the join hashes them); f: probe keys, Zipf over h's rows, one in sixteen a miss. */
    private void data(Catalog catalog, double theta) {
        TableBuilder h = new TableBuilder(new TableSchema("h", List.of(
                new ColumnSchema("code", DataType.BIGINT, false),
                new ColumnSchema("w", DataType.INTEGER, false)), List.of(), List.of()), catalog);
        for (int r = 0; r < buildRows; r++) {
            h.setLong(0, 7L * r + 3);
            h.setLong(1, r % 100);
            h.endRow();
        }
        catalog.put(h.build());
        int[] codes = ZipfCodes.generate(factRows, buildRows, theta, 42, ZipfCodes.Ranks.SHUFFLED);
        TableBuilder f = new TableBuilder(new TableSchema("f", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("amt", DataType.INTEGER, false)), List.of(), List.of()), catalog);
        for (int r = 0; r < factRows; r++) {
            f.setLong(0, 7L * codes[r] + (r % 16 == 15 ? 4 : 3));
            f.setLong(1, r % 1000);
            f.endRow();
        }
        catalog.put(f.build());
    }
}
