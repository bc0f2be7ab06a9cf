package dev.starling.gpu.plan;

import dev.starling.exec.accel.DevicePlan;
import dev.starling.gpu.pipeline.CloneChoice;
import dev.starling.gpu.pipeline.StarPipeline;
import java.util.List;

/**
 * A pipeline the planner placed on the GPU, planned for device profile {@code target}: the star
 * pipeline compiled from the plan, whether a clone layout serves it, and, when it shares its fact
 * rows with the CPU workers, the dimensions whose hash tables are built once in host memory for both.
 */
public record GpuPipelinePlan(String target, StarPipeline pipeline, CloneChoice clones, List<Integer> sharedTables)
        implements DevicePlan {
    public GpuPipelinePlan {
        sharedTables = List.copyOf(sharedTables);
    }
}
