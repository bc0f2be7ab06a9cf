package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.Optional;

/** One run of a compiled star pipeline on the GPU: its result {@code R}, or empty with the reason it was handed back. */
public abstract class PipelineRun<R> {
    protected final GpuDevice device;
    protected final GpuColumnCache cache;
    protected final StarPipeline pipeline;
    /** How a hash join whose table is past the device memory budget runs. */
    protected final OversizedJoin oversized;
    /** Why the last run returned empty. */
    protected String declined = "";
    /** The last run's times and bytes. */
    protected RunStats stats;

    protected PipelineRun(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, OversizedJoin oversized) {
        this.device = device;
        this.cache = cache;
        this.pipeline = pipeline;
        this.oversized = oversized;
    }

    public abstract Optional<R> run(DeviceInputs inputs);

    public String declined() {
        return declined;
    }

    public RunStats stats() {
        return stats;
    }

    protected static double ms(long nanos) {
        return nanos / 1e6;
    }
}
