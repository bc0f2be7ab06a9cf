package dev.starling.gpu;

import dev.starling.exec.accel.BackendMode;
import dev.starling.gpu.hybrid.OversizedJoinModel;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.gpu.pipeline.StarPipeline;

/**
 * Whether an aggregation the GPU takes runs there alone or shares its fact rows with the CPU
 * workers (the thesis' §3.5), and why. Sharing chunks dynamically, each processor at its own rate,
 * the probe takes g·c/(g+c) instead of the GPU's g, c being the CPU workers' time alone: it saves
 * g²/(g+c). It costs the CPU workers their own join tables: each processor keeps its own copy of
 * every build side (the thesis' rule for small build sides; the GPU's tables are built in their
 * own layout, in device memory or as hybrid tables, which the CPU does not read). The GPU alone is
 * kept unless sharing saves more than those builds take and at least {@link #MIN_GAIN} of its time.
 *
 * <p>The GPU's time: its fact columns at device bandwidth, and each hash join's probes at the rate
 * its placement predicts ({@link OversizedJoinModel}: in device memory, or hybrid past the budget).
 * The CPU's: per fact row and worker, a scan and aggregation cost and a cost per join probed
 * (estimates in line with the CPU backend's SSB times at SF 10: 45–130 ms for 60M rows on 16
 * cores), and its own builds per build row (measured: docs/BENCHMARKS.md, co-processing).
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
    /** Sharing must save at least this share of the GPU's time. */
    static final double MIN_GAIN = 0.1;
    /** Device memory bytes per second the kernel streams the fact columns at. */
    private static final double DEVICE_BYTES = 2.99e12;

    private CoProcessingModel() { }

    /** Predicted seconds: the GPU's pipeline alone, the CPU workers' alone, and the CPU workers' own builds. */
    record Prediction(double gpu, double cpu, double builds, int workers) {
        double shared() {
            return gpu * cpu / (gpu + cpu);
        }

        boolean shares() {
            double saved = gpu - shared();
            return saved > builds && saved >= MIN_GAIN * gpu;
        }

        String describe() {
            return String.format("predicted: GPU %.2f ms, %d CPU workers %.2f ms, together %.2f ms, the CPU workers' "
                    + "own join tables %.2f ms", gpu * 1e3, workers, cpu * 1e3, shared() * 1e3, builds * 1e3);
        }
    }

    /**
     * The prediction for {@code pipeline} with {@code factBytes} of fact columns, {@code left}
     * bytes of device memory for its hash tables, on {@code workers} CPU workers.
     */
    static Prediction predict(StarPipeline pipeline, long factBytes, long left, int workers) {
        long rows = pipeline.fact().rowCount();
        double gpu = factBytes / DEVICE_BYTES;
        double cpuPerRow = CPU_ROW_SECONDS;
        long buildRows = 0;
        for (StarPipeline.Dimension d : pipeline.dimensions()) {
            buildRows += d.range();
            if (!d.hashed()) {
                cpuPerRow += CPU_DENSE_PROBE_SECONDS;
                continue;
            }
            cpuPerRow += CPU_HASH_PROBE_SECONDS;
            long bytes = DimensionHashTable.bytesFor(d.range());
            double share = Math.min(1, (double) left / bytes);
            left = Math.max(0, left - bytes);
            gpu += rows / OversizedJoinModel.hybridProbes(share);
        }
        return new Prediction(gpu, rows * cpuPerRow / workers, buildRows * CPU_BUILD_SECONDS, workers);
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
