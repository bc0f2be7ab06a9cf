package dev.starling.exec.pipeline;

import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.run.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Placer;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.Batch;
import java.util.BitSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An accelerator for the co-processing tests, with the placer that plans for it: every aggregation
 * shared with the CPU workers, nothing alone; what its part does is the test's {@link #share}, over
 * the build sides {@link #inputs} names, which the executor runs first.
 */
abstract class SharingAccelerator implements Accelerator {
    /** The build sides the shared part of {@code node} reads; none unless a test's part builds a table. */
    List<PlanNode> inputs(AggregateNode node) {
        return List.of();
    }

    private Placer shareAggregations() {
        return new Placer() {
            @Override
            public Placement aggregate(AggregateNode node, GroupsWanted wanted, PlanEstimates estimates,
                                       Settings settings) {
                return Placement.both("test", new DevicePlan() {
                    @Override
                    public String target() {
                        return "test";
                    }

                    @Override
                    public List<PlanNode> inputs() {
                        return SharingAccelerator.this.inputs(node);
                    }
                });
            }

            @Override
            public Placement rows(PlanNode top, SortNode sort, PlanEstimates estimates, Settings settings) {
                return Placement.cpu("test");
            }

            @Override
            public Placement sort(SortNode node, PlanEstimates estimates, Settings settings) {
                return Placement.cpu("test");
            }
        };
    }

    @Override
    public Optional<Batch> aggregate(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
        throw new AssertionError("a shared aggregation does not run on the accelerator alone");
    }

    @Override
    public Optional<Batch> rows(PlanNode top, DevicePlan plan, DeviceInputs inputs, BitSet needed, QueryContext ctx) {
        throw new AssertionError("no result rows are placed on the accelerator");
    }

    @Override
    public Optional<int[]> sort(SortNode node, Batch rows, DevicePlan plan, QueryContext ctx) {
        throw new AssertionError("no sort is placed on the accelerator");
    }

    /** {@code plan}'s rows as sorted strings, run on 3 CPU workers with {@code accelerator} (or none: all on the CPU). */
    static List<String> sortedRows(PlanNode plan, SharingAccelerator accelerator) {
        PipelineGraph graph = accelerator == null ? PipelineGraph.cpu(plan)
                : PipelineGraph.of(plan, accelerator.shareAggregations(), Settings.DEFAULT);
        try (Executor executor = new Executor(3, null, accelerator)) {
            QueryResult r = executor.collect(graph, new QueryContext(Settings.DEFAULT));
            List<String> rows = new ArrayList<>(r.rows().stream().map(Object::toString).toList());
            rows.sort(Comparator.naturalOrder());
            return rows;
        }
    }
}
