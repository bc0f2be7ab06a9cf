package dev.starling.gpu.plan;

import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.exec.BackendMode;
import dev.starling.gpu.hybrid.OversizedJoinModel;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.gpu.pipeline.StarPipeline;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether an aggregation the GPU takes runs there alone or shares its fact rows with the CPU
 * workers (Lutz's thesis' §3.5), where each join table lives then, and why. Sharing chunks
 * dynamically, each processor at its own rate, the probe takes g·c/(g+c) instead of the GPU's g, c
 * being the CPU workers' time alone. The join tables follow the thesis' placement rule (§3.5.2): a
 * small build side is built by each processor in its own memory (the GPU's in device memory, or as
 * a hybrid table past the budget), a large one once, in pinned host memory that both probe, the
 * GPU over the link. Large means that the CPU workers' own build of it would take longer than the
 * GPU loses probing it over the link instead of in its own placement, plus pinning its host memory.
 * The GPU alone is kept unless sharing saves more than the CPU workers' own builds and the shared
 * tables' pinning take, and at least {@link #MIN_GAIN} of its time.
 *
 * <p>The GPU's time: its fact columns at the device profile's bandwidth, and each hash join's probes at the rate
 * its placement predicts ({@link OversizedJoinModel}: in device memory, hybrid past the budget, or
 * all on the host when shared). The CPU's: per fact row and worker, a scan and aggregation cost and
 * a cost per join probed (estimates in line with the CPU backend's SSB times at SF 10: 45–130 ms for
 * 60M rows on 16 cores), and its own builds per build row (measured: docs/BENCHMARKS.md,
 * co-processing).
 */
final class CoProcessingModel {
    /** Seconds per fact row and CPU worker to scan, filter and aggregate it. */
    static final double CPU_ROW_SECONDS = 10e-9;
    /** Seconds per fact row and CPU worker to probe a dense join (an array lookup). */
    static final double CPU_DENSE_PROBE_SECONDS = 3e-9;
    /** Seconds per fact row and CPU worker to probe a hash join (a random read of its table). */
    static final double CPU_HASH_PROBE_SECONDS = 40e-9;
    /**
     * Seconds per build row of the CPU workers' own join tables, all workers together: sharing a
     * 16.8M-row hash join (OversizedJoinBenchMain, in-GPU+cpu) took 1.2 s longer than the GPU alone.
     */
    static final double CPU_BUILD_SECONDS = 70e-9;
    /**
     * Bytes per second at which a shared table's pinned host memory is allocated: the shared 512 MB
     * table of OversizedJoinBenchMain took 240–270 ms to place, nearly all of it pinning (H100 host).
     */
    static final double PIN_BYTES_PER_SECOND = 2.2e9;
    /** Sharing must save at least this share of the GPU's time. */
    static final double MIN_GAIN = 0.1;
    private final DeviceProfile device;
    private final OversizedJoinModel joins;

    CoProcessingModel(DeviceProfile device) {
        this.device = device;
        this.joins = new OversizedJoinModel(device);
    }

    /**
     * Predicted seconds: the GPU's pipeline alone ({@code gpu}) and when sharing ({@code gpuShared}:
     * the shared tables probed over the link), the CPU workers' alone, and the CPU workers' own
     * builds of the tables not shared, pinning the host memory of those shared; {@code sharedTables}
     * the hashed dimensions built once for both.
     */
    record Prediction(double gpu, double gpuShared, double cpu, double builds, double pinning, int workers,
                      List<Integer> sharedTables) {
        double shared() {
            return gpuShared * cpu / (gpuShared + cpu);
        }

        boolean shares() {
            double saved = gpu - shared();
            return saved > builds + pinning && saved >= MIN_GAIN * gpu;
        }

        String describe() {
            return String.format("predicted: GPU %.2f ms, %d CPU workers %.2f ms, together %.2f ms, the CPU workers' "
                    + "own join tables %.2f ms%s", gpu * 1e3, workers, cpu * 1e3, shared() * 1e3, builds * 1e3,
                    sharedTables.isEmpty() ? "" : String.format("; the tables of dimensions %s built once in host "
                            + "memory for both (large build sides; pinning it %.2f ms)", sharedTables, pinning * 1e3));
        }
    }

    /**
     * The prediction for {@code pipeline} with {@code factBytes} of fact columns, {@code left}
     * bytes of device memory for its hash tables, on {@code workers} CPU workers.
     */
    Prediction predict(StarPipeline pipeline, long factBytes, long left, int workers) {
        long rows = pipeline.fact().rowCount();
        double gpu = factBytes / device.deviceBytesPerSecond();
        double gpuShared = gpu;
        double cpuPerRow = CPU_ROW_SECONDS;
        double builds = 0;
        double pinning = 0;
        List<Integer> sharedTables = new ArrayList<>();
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            StarPipeline.Dimension dim = pipeline.dimensions().get(d);
            double build = dim.range() * CPU_BUILD_SECONDS;
            if (!dim.hashed()) {
                cpuPerRow += CPU_DENSE_PROBE_SECONDS;
                builds += build;
                continue;
            }
            cpuPerRow += CPU_HASH_PROBE_SECONDS;
            long bytes = DimensionHashTable.bytesFor(dim.range());
            double own = rows / joins.hybridProbes(Math.min(1, (double) left / bytes));
            double overTheLink = rows / joins.hybridProbes(0);
            double pin = bytes / PIN_BYTES_PER_SECOND;
            left = Math.max(0, left - bytes);
            gpu += own;
            // the CPU workers' join reads a shared table by its own key columns, which a packed key is
            // not, and its own build rows, which lack an outer dimension's row of NULLs; a table the
            // GPU builds is in device memory
            if (build > overTheLink - own + pin && !dim.packedKey() && !dim.outer() && !dim.builtOnGpu()) {
                sharedTables.add(d);
                gpuShared += overTheLink;
                pinning += pin;
            } else {
                gpuShared += own;
                builds += build;
            }
        }
        return new Prediction(gpu, gpuShared, rows * cpuPerRow / workers, builds, pinning, workers,
                List.copyOf(sharedTables));
    }

    /** Whether to share under {@code mode} (both: always; auto: when predicted to pay), and why. */
    static String reason(Prediction p, BackendMode mode) {
        if (mode == BackendMode.BOTH) {
            return "session backend is both, the GPU and the CPU workers sharing the fact rows (" + p.describe() + ")";
        }
        return p.shares() ? "the GPU and the CPU workers share the fact rows (" + p.describe() + ")"
                : "the GPU alone: sharing the fact rows with the CPU workers would save less than it costs ("
                        + p.describe() + ")";
    }
}
