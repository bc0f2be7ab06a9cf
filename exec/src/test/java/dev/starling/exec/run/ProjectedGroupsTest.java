package dev.starling.exec.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.Settings;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.AggregateNode.Function;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.LimitNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A plan over an aggregation's groups (TPC-H Q14's ratio of two sums, a filter over it): the
 * aggregation's placer is told that plan when it tops a pipeline that only hands on what comes
 * back, not when a CPU operator reads it; where the device plan computes it, its rows are the
 * query's as they come back, and the pipeline is shown on the device; where the device hands the
 * work back, the CPU aggregates and computes it, and the answer is the CPU's.
 */
class ProjectedGroupsTest {
    private static AggregateNode groups;
    private static ProjectNode doubled;

    @BeforeAll
    static void plan() {
        TableBuilder b = new TableBuilder(new TableSchema("t", List.of(new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of()), Catalog.inMemory());
        for (int r = 0; r < 2 * Table.CHUNK_ROWS; r++) {
            b.setLong(0, r % 10);
            b.setLong(1, r % 7);
            b.endRow();
        }
        ScanNode scan = new ScanNode(b.build(), List.of(ScanNode.ScanColumn.value(0), ScanNode.ScanColumn.value(1)), null);
        groups = new AggregateNode(scan, new int[] {0}, List.of(new AggCall(Function.SUM, 1, false, -1, "s",
                DataType.BIGINT, false)));
        doubled = new ProjectNode(groups, List.of(new ColumnRef(0, DataType.BIGINT, false),
                new Call(Call.Op.MULTIPLY, List.of(new ColumnRef(1, DataType.BIGINT, false), new Literal(2L, DataType.BIGINT)),
                        DataType.BIGINT, false)), List.of("k", "twice"));
    }

    @Test
    void aProjectionToppingTheResultIsComputedWhereTheGroupsAre() {
        Projecting device = new Projecting(true);
        PipelineGraph graph = PipelineGraph.of(doubled, device.placer(), Settings.DEFAULT);
        assertSame(doubled, device.wanted.get(groups).above());
        assertTrue(graph.computedOnDevice(doubled));
        PipelineGraph.Pipeline result = graph.topping(doubled).orElseThrow();
        assertTrue(result.placement().accelerated());
        assertTrue(result.placement().reason().contains("its rows computed from them on the GPU"), result.placement().reason());
        // the device's rows come back as they are: nothing is projected over them again
        assertEquals(device.rows(), rows(graph, device));
    }

    @Test
    void handedBackTheCpuAggregatesAndComputesAFilterAndAProjection() {
        FilterNode filtered = new FilterNode(doubled, new Call(Call.Op.GT, List.of(new ColumnRef(0, DataType.BIGINT, false),
                new Literal(4L, DataType.BIGINT)), DataType.BOOLEAN, false));
        Projecting device = new Projecting(false);
        PipelineGraph graph = PipelineGraph.of(filtered, device.placer(), Settings.DEFAULT);
        assertSame(filtered, device.wanted.get(groups).above());
        List<List<Object>> cpu = rows(PipelineGraph.cpu(filtered), null);
        assertEquals(cpu, rows(graph, device));
        assertEquals(5, cpu.size(), "the filter keeps half the groups: " + cpu);
        assertEquals(1, device.runs, "the device ran once, and not again for the CPU's aggregation");
    }

    @Test
    void aPlanACpuOperatorReadsIsNotOffered() {
        LimitNode above = new LimitNode(doubled, 0, 3);
        Projecting device = new Projecting(true);
        PipelineGraph graph = PipelineGraph.of(above, device.placer(), Settings.DEFAULT);
        assertNull(device.wanted.get(groups).above());
        assertFalse(graph.computedOnDevice(doubled));
    }

    private static List<List<Object>> rows(PipelineGraph graph, Accelerator accelerator) {
        try (Executor executor = new Executor(2, null, accelerator)) {
            List<List<Object>> rows = new ArrayList<>(executor.collect(graph, new QueryContext(Settings.DEFAULT)).rows());
            rows.sort((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)));
            return rows;
        }
    }

    /**
     * Places every aggregation on the "device", recording what each was told; its plan computes the
     * projection it was told of, and a run hands back fixed rows of that projection's shape, or
     * ({@code computes} false) nothing.
     */
    private static final class Projecting extends StandInAccelerator {
        final Map<PlanNode, GroupsWanted> wanted = new IdentityHashMap<>();
        private final boolean computes;
        int runs;

        Projecting(boolean computes) {
            this.computes = computes;
        }

        /** The rows a run hands back. */
        List<List<Object>> rows() {
            return List.of(List.of(-1L, 42L));
        }

        @Override
        Placement aggregatePlaced(AggregateNode node, GroupsWanted w) {
            wanted.put(node, w);
            return Placement.gpu("test", devicePlan(List.of(), w.above(), false));
        }

        @Override
        public Optional<Batch> aggregate(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
            runs++;
            return computes ? Optional.of(new Batch(new Vector[] {Vector.ofLongs(DataType.BIGINT, new long[] {-1}, null),
                    Vector.ofLongs(DataType.BIGINT, new long[] {42}, null)}, 1)) : Optional.empty();
        }
    }
}
