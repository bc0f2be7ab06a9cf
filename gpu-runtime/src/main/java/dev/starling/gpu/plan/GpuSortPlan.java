package dev.starling.gpu.plan;

import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.plan.PlanNode;
import java.util.List;

/**
 * A sort the planner placed on the GPU, planned for device profile {@code target}, over rows that
 * reach it on the host: the GPU is handed their keys when they have all come and hands back their
 * order ({@link dev.starling.gpu.pipeline.HostRowsSort}); it reads nothing else.
 */
public record GpuSortPlan(String target) implements DevicePlan {
    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }
}
