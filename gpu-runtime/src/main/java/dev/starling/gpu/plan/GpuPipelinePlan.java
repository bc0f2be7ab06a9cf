package dev.starling.gpu.plan;

import dev.starling.exec.accel.DevicePlan;
import dev.starling.gpu.pipeline.CloneChoice;
import dev.starling.gpu.pipeline.GroupFilter;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline the planner placed on the GPU, planned for device profile {@code target}: the star
 * pipeline compiled from the plan, whether a clone layout serves it, the HAVING terms its groups
 * must pass to come back (null: none), and, when it shares its fact rows with the CPU workers, the
 * dimensions whose hash tables are built once in host memory for both. The CPU runs the build
 * sides of the dimensions the GPU does not build.
 */
public record GpuPipelinePlan(String target, StarPipeline pipeline, CloneChoice clones, GroupFilter having,
                              List<Integer> sharedTables) implements DevicePlan {
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
            if (!pipeline.dimensions().get(d).builtOnGpu()) {
                inputs.add(input(d));
            }
        }
        return inputs;
    }

    /** The plan whose rows the CPU runs for dimension {@code d} (one the GPU does not build). */
    public PlanNode input(int d) {
        PlanNode build = pipeline.dimensions().get(d).build();
        return sharedTables.contains(d) ? ((ProjectNode) build).input() : build;
    }

    /** Whether join build side {@code build} (a plan node of the pipeline) is built by the GPU, not the CPU. */
    @Override
    public boolean buildsOnDevice(PlanNode build) {
        return pipeline.dimensions().stream().anyMatch(d -> d.builtOnGpu() && ((ProjectNode) d.build()).input() == build);
    }
}
