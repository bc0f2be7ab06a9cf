package dev.starling.gpu.pipeline;

import dev.starling.exec.pipeline.SharedBuild;
import dev.starling.exec.pipeline.SharedBuilds;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.vector.Batch;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.MappedHostBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The hashed dimensions whose tables a run shared with the CPU workers builds once, in pinned host
 * memory that both probe (the kernel over the link), and the exchange it hands them to the CPU
 * workers through. Such a dimension's build side is materialized whole, so that the CPU workers'
 * join reads its columns at the rows the table gives, and the kernel's per-row expressions are
 * evaluated over it in the same order.
 */
public final class SharedTables {
    static final SharedTables NONE = new SharedTables(Map.of(), null);

    /** Per dimension, the join's own build side (the plan under the kernel's projection). */
    private final Map<Integer, PlanNode> builds;
    private final SharedBuilds exchange;
    private final Map<Integer, Batch> buildRows = new HashMap<>();

    public SharedTables(Map<Integer, PlanNode> builds, SharedBuilds exchange) {
        this.builds = Map.copyOf(builds);
        this.exchange = exchange;
    }

    boolean shares(int d) {
        return builds.containsKey(d);
    }

    /**
     * Dimension {@code d}'s rows as the kernel's projection {@code dim} gives them from its build
     * side's {@code rows}, which are kept for {@link #publish}.
     */
    Batch project(int d, StarPipeline.Dimension dim, Batch rows) {
        buildRows.put(d, rows);
        return DimensionProjection.apply((ProjectNode) dim.build(), rows);
    }

    /** Hands dimension {@code d}'s table, built in {@code memory}, to the CPU workers, who free it when done. */
    void publish(int d, DimensionHashTable table, MappedHostBuffer memory, GpuDevice device) {
        exchange.publish(builds.get(d), new HostTable(buildRows.get(d), table, memory, device));
    }

    /** A dimension's table in pinned host memory, as the CPU workers' join reads it. */
    private record HostTable(Batch rows, DimensionHashTable table, MappedHostBuffer memory, GpuDevice device)
            implements SharedBuild {
        @Override
        public int rowOf(long key) {
            return table.rowOf(key);
        }

        @Override
        public void close() {
            device.makeCurrent();
            memory.close();
        }
    }
}
