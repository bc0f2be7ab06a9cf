package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryResult;
import dev.starling.exec.BackendMode;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.cuda.KernelCompiler;
import dev.starling.gpu.pipeline.RunStats;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The GPU backend against the CPU backend on the GPU host: per query, end-to-end time through the
 * embedded API on each backend, the GPU kernel time, the bytes of fact columns the kernel reads and
 * the floor (those bytes at the measured device bandwidth), with data resident on the GPU (one
 * unmeasured warm-up run moves the columns), and where the rest of the GPU time goes: planning
 * (timed as EXPLAIN), building dimensions on the CPU, preparing the group layout, copies, and
 * decoding the groups. {@code pipeline} says whether the GPU could run the query's aggregation
 * (forced), {@code auto} where the cost model puts it; {@code both_ms} is the time with the GPU
 * sharing the fact rows with the CPU workers (backend both), {@code both_gpu_rows} the share of
 * the fact chunks the GPU ran then.
 */
@Command(name = "starling-gpu-bench", mixinStandardHelpOptions = true,
        description = "Times TPC-H and SSB on the GPU and the CPU backend of one process.")
public final class GpuBenchMain implements Callable<Integer> {

    private static final int PLANNER_WARM_UP = 20;

    @Option(names = "--sf", description = "Scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 10;

    @Option(names = "--workload", split = ",", description = "tpch, ssb, topn (TPC-H's lineitem cut by ORDER BY ... LIMIT), or several (default: ${DEFAULT-VALUE}).")
    private List<Workload> workloads = List.of(Workload.SSB, Workload.TPCH);

    @Option(names = "--runs", description = "Measured runs per query after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    @Option(names = "--queries", split = ",", description = "Only these queries, e.g. Q1,Q6 or Q1.1.")
    private List<String> only = List.of();

    @Option(names = "--gpu-only", description = "Time the GPU only, not the CPU backend nor the two together "
            + "(at scale factors where the CPU's runs take longer than a run on the GPU host may).")
    private boolean gpuOnly;

    public static void main(String[] args) {
        System.exit(new CommandLine(new GpuBenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (Starling probe = Starling.inMemory()) {
            GpuBackend gpu = probe.gpu().orElse(null);
            if (gpu == null) {
                System.out.println("no GPU backend in this process: nothing to measure");
                return 1;
            }
            double bandwidth = DeviceBandwidth.measure(gpu.device(), 1L << 30, 5);
            System.out.printf("%s; device copy bandwidth %.0f GB/s; median of %d warm runs; %d cores; Java %s%n",
                    gpu.device().describe(), bandwidth / 1e9, runs, Runtime.getRuntime().availableProcessors(),
                    Runtime.version());
            for (Workload workload : workloads) {
                bench(workload, bandwidth);
            }
        }
        return 0;
    }

    private void bench(Workload workload, double bandwidth) throws Exception {
        WarmTimer timer = new WarmTimer(runs);
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElseThrow();
            long start = System.nanoTime();
            workload.generate(db.catalog(), scaleFactor);
            System.out.printf("%n%s SF %s generated in %.1f s%n", workload, scaleFactor, (System.nanoTime() - start) / 1e9);
            // A running server plans all the time: measure with the planner's code compiled, as it is there.
            for (int round = 0; round < PLANNER_WARM_UP; round++) {
                for (String sql : workload.queries(scaleFactor).values()) {
                    db.explain(sql);
                }
            }
            List<List<Object>> rows = new ArrayList<>();
            List<Double> speedups = new ArrayList<>();
            List<Double> gpuTimes = new ArrayList<>();
            for (Map.Entry<String, String> q : workload.queries(scaleFactor).entrySet()) {
                if (!only.isEmpty() && !only.contains(q.getKey())) {
                    continue;
                }
                db.setBackendMode(BackendMode.CPU);
                Double cpu = gpuOnly ? null : timer.medianMillis(() -> db.query(q.getValue()));
                double plan = timer.medianMillis(() -> db.explain(q.getValue()));
                db.setBackendMode(BackendMode.AUTO);
                String explained = db.explain(q.getValue());
                String auto = explained.contains("backend=gpu+cpu") ? "gpu+cpu"
                        : explained.contains("backend=gpu") ? "gpu" : "cpu";
                db.setBackendMode(BackendMode.GPU);
                long runsBefore = gpu.runs();
                KernelCompiler.Stats compiledBefore = gpu.device().compilerStats();
                List<RunStats> stats = new ArrayList<>();
                double onGpu = timer.medianMillis(() -> {
                    db.query(q.getValue());
                    stats.add(gpu.lastRun());
                });
                boolean ran = gpu.runs() > runsBefore;
                KernelCompiler.Stats compiled = gpu.device().compilerStats();
                double compileMs = compiled.compileMillis() - compiledBefore.compileMillis();
                long kernels = compiled.compiled() - compiledBefore.compiled();
                db.setBackendMode(BackendMode.AUTO);
                if (!ran) {
                    rows.add(Arrays.asList(q.getKey(), "cpu", auto, round(cpu), null, null, null, round(plan), null, null,
                            null, null, null, null, null, null, null, null, null));
                    continue;
                }
                db.setBackendMode(BackendMode.BOTH);
                List<RunStats> shared = new ArrayList<>();
                Double both = gpuOnly ? null : timer.medianMillis(() -> {
                    db.query(q.getValue());
                    shared.add(gpu.lastRun());
                });
                db.setBackendMode(BackendMode.AUTO);
                // The first run (the warm-up) moved the columns to the device; the measured ones find them resident.
                List<RunStats> warm = stats.subList(1, stats.size());
                RunStats last = warm.get(warm.size() - 1);
                double kernelMs = median(warm, RunStats::kernelMillis);
                double floorMs = last.factBytes() / bandwidth * 1e3;
                if (cpu != null) {
                    speedups.add(cpu / onGpu);
                }
                gpuTimes.add(onGpu);
                Double gpuRows = both == null ? null : median(shared, r -> r.gpuChunks()) / last.gpuChunks();
                rows.add(Arrays.asList(q.getKey(), "gpu", auto, round(cpu), round(onGpu), round(both), round(gpuRows),
                        round(plan),
                        round(median(warm, RunStats::buildMillis)), round(median(warm, RunStats::prepareMillis)),
                        round(median(warm, RunStats::copyMillis)), round(kernelMs),
                        round(median(warm, RunStats::decodeMillis)), round(last.factBytes() / 1e6), round(floorMs),
                        round(kernelMs / floorMs), last.groups(), kernels, round(compileMs)));
                System.out.printf("  %s done%n", q.getKey());
            }
            if (!gpuTimes.isEmpty()) {
                System.out.printf("geomean GPU end-to-end time over %d GPU queries: %.2f ms%n", gpuTimes.size(),
                        Math.exp(gpuTimes.stream().mapToDouble(Math::log).average().orElse(0)));
            }
            if (!speedups.isEmpty()) {
                double logSum = speedups.stream().mapToDouble(Math::log).sum();
                System.out.printf("geomean CPU/GPU end-to-end speedup over %d GPU queries: %.1fx%n", speedups.size(),
                        Math.exp(logSum / speedups.size()));
            }
            System.out.print(new QueryResult(List.of(
                    new Field("query", DataType.VARCHAR, false),
                    new Field("pipeline", DataType.VARCHAR, false),
                    new Field("auto", DataType.VARCHAR, false),
                    new Field("cpu_ms", DataType.DOUBLE, true),
                    new Field("gpu_ms", DataType.DOUBLE, true),
                    new Field("both_ms", DataType.DOUBLE, true),
                    new Field("both_gpu_rows", DataType.DOUBLE, true),
                    new Field("plan_ms", DataType.DOUBLE, true),
                    new Field("build_ms", DataType.DOUBLE, true),
                    new Field("prep_ms", DataType.DOUBLE, true),
                    new Field("copy_ms", DataType.DOUBLE, true),
                    new Field("kernel_ms", DataType.DOUBLE, true),
                    new Field("decode_ms", DataType.DOUBLE, true),
                    new Field("fact_MB", DataType.DOUBLE, true),
                    new Field("floor_ms", DataType.DOUBLE, true),
                    new Field("kernel/floor", DataType.DOUBLE, true),
                    new Field("groups", DataType.BIGINT, true),
                    new Field("kernels_compiled", DataType.BIGINT, true),
                    new Field("compile_ms", DataType.DOUBLE, true)), rows).toText());
            KernelCompiler.Stats all = gpu.device().compilerStats();
            System.out.printf("kernels compiled by NVRTC so far: %d in %.0f ms (%.0f ms each); %d read from the disk cache%n",
                    all.compiled(), all.compileMillis(), all.compileMillis() / Math.max(1, all.compiled()), all.cacheHits());
            gpu.columnCache().clear();
        }
    }

    private static double median(List<RunStats> runs, java.util.function.ToDoubleFunction<RunStats> field) {
        return WarmTimer.median(runs.stream().mapToDouble(field).toArray());
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 100) / 100.0;
    }
}
