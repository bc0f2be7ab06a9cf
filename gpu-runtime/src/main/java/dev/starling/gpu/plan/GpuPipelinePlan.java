package dev.starling.gpu.plan;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.gpu.pipeline.CloneChoice;
import dev.starling.gpu.pipeline.GroupFilter;
import dev.starling.gpu.pipeline.GroupOrder;
import dev.starling.gpu.pipeline.GroupProgram;
import dev.starling.gpu.pipeline.RowOrder;
import dev.starling.gpu.pipeline.RowSort;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.plan.ProjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pipeline the planner placed on the GPU, planned for device profile {@code target}: the star
 * pipeline compiled from the plan, whether a clone layout serves it, the HAVING terms its groups
 * must pass to come back (null: none), the order in which only its first groups are decoded (null:
 * all are), the plan over its groups whose rows come back instead, computed on the GPU
 * (null: none), for a selection the order in which only its first rows come back ({@code rowOrder};
 * null: all do) and the order they come back in, and which of them ({@code rowSort}; null: in no
 * order, all of them), the groups the optimizer expects ({@link StarPipeline#NO_ESTIMATE}: no estimate, or
 * not an aggregation), and, when it shares its fact rows with the CPU workers, the
 * dimensions whose hash tables are built once in host memory for both. The CPU runs the build
 * sides of the dimensions the GPU does not build.
 */
public record GpuPipelinePlan(String target, StarPipeline pipeline, CloneChoice clones, GroupFilter having,
                              GroupOrder order, GroupProgram program, long expectedGroups, List<Integer> sharedTables,
                              RowOrder rowOrder, RowSort rowSort) implements DevicePlan {
    public GpuPipelinePlan {
        sharedTables = List.copyOf(sharedTables);
    }

    /**
     * Each dimension's rows as the kernel reads them (its build side under the kernel's per-row
     * expressions), or, for a table shared with the CPU workers, the join's own build side, whose
     * rows the CPU workers' join reads by the table's row numbers; then the scalar the HAVING terms
     * compare with, if they do.
     */
    @Override
    public List<PlanNode> inputs() {
        List<PlanNode> inputs = new ArrayList<>();
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            if (!pipeline.dimensions().get(d).builtOnGpu()) {
                inputs.add(input(d));
            }
        }
        if (scalar() != null) {
            inputs.add(scalar());
        }
        return inputs;
    }

    /**
     * The plan of one row whose columns the HAVING terms or the program over the groups read (the
     * same join's build side), run among {@link #inputs} last; null: none.
     */
    private PlanNode scalar() {
        return program != null && program.scalar() != null ? program.scalar()
                : having != null ? having.scalar() : null;
    }

    @Override
    public boolean sortsRows() {
        return rowSort != null;
    }

    @Override
    public boolean computesAbove(PlanNode node) {
        return program != null && program.top() == node;
    }

    /** The HAVING terms bound to the scalar they compare with, run among {@code inputs}; null when there are none. */
    public GroupFilter havingOver(DeviceInputs inputs) {
        return having == null || having.scalar() == null ? having : having.bind(scalarRows(inputs));
    }

    /** The program over the groups bound to the scalar it reads, run among {@code inputs}; null when there is none. */
    public GroupProgram.Bound programOver(DeviceInputs inputs) {
        return program == null ? null : program.bind(program.scalar() == null ? null : scalarRows(inputs));
    }

    private static Batch scalarRows(DeviceInputs inputs) {
        return inputs.builds().get(inputs.builds().size() - 1);
    }

    /** The plan whose rows the CPU runs for dimension {@code d} (one the GPU does not build). */
    public PlanNode input(int d) {
        PlanNode build = pipeline.dimensions().get(d).build();
        return sharedTables.contains(d) ? ((ProjectNode) build).input() : build;
    }

    /**
     * How the GPU builds join input {@code build} (a plan node of the pipeline), if it does: by the
     * pipeline it feeds, at its rows' indexes (a hashed one with its hash table), or, for a marking
     * join, at the codes its keys hold (an aggregation's groups folded there, and that aggregation
     * too); or streams it, when the pipeline's fact scan is in it (a join's sides swapped, or the
     * probe side of a join the CPU would run by marking it).
     */
    @Override
    public Optional<String> deviceBuild(PlanNode build) {
        if (scans(build, pipeline.factScan())) {
            return Optional.of("streamed on the GPU by the pipeline it feeds, which probes the join's other side");
        }
        return pipeline.dimensions().stream().filter(d -> d.builtOnGpu()
                        && (joinBuild(d) == build || d.foldsGroups() && d.folded() == build)).findFirst()
                .map(d -> "built on the GPU by the pipeline it feeds, "
                        + (d.foldsGroups() ? "folding its groups at the codes their key holds"
                        : d.marks() ? "marking the codes its keys hold"
                        : d.hashed() ? "its rows by index, found through a hash table built there" : "its rows by index"));
    }

    /**
     * Whether {@code node} reads {@code scan}: a join build side that holds the pipeline's fact scan
     * is the side the pipeline streams, its join's sides swapped.
     */
    private static boolean scans(PlanNode node, PlanNode scan) {
        return node == scan || node.inputs().stream().anyMatch(in -> scans(in, scan));
    }

    /** The join's build side under dimension {@code d}'s projection (and a packed key's). */
    private static PlanNode joinBuild(StarPipeline.Dimension d) {
        PlanNode under = ((ProjectNode) d.build()).input();
        return d.packedKey() ? ((ProjectNode) under).input() : under;
    }
}
