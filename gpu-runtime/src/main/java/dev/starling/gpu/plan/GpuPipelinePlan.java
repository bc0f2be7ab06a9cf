package dev.starling.gpu.plan;

import dev.starling.exec.accel.DevicePlan;
import dev.starling.gpu.pipeline.CloneChoice;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import java.util.ArrayList;
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

    /**
     * Each dimension's rows as the kernel reads them (its build side under the kernel's per-row
     * expressions), or, for a table shared with the CPU workers, the join's own build side, whose
     * rows the CPU workers' join reads by the table's row numbers.
     */
    @Override
    public List<PlanNode> inputs() {
        List<PlanNode> inputs = new ArrayList<>();
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            PlanNode build = pipeline.dimensions().get(d).build();
            inputs.add(sharedTables.contains(d) ? ((ProjectNode) build).input() : build);
        }
        return inputs;
    }
}
