package dev.starling.exec.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
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
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
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
 * Groups compared with a scalar subquery (an inner join of an aggregation's rows with a plan of one
 * row, as TPC-H Q11's HAVING and Q15's maximum are planned): the placer of the aggregation is told
 * the join's condition and the scalar, only for the join's probe side; a device plan that reads the
 * scalar gets its row, computed once for the device and the CPU's join; the answer is the CPU's.
 */
class ScalarComparedGroupsTest {
    private static AggregateNode groups;
    private static AggregateNode total;
    private static HashJoinNode compared;

    @BeforeAll
    static void plan() {
        TableBuilder b = new TableBuilder(new TableSchema("t", List.of(new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of()), Catalog.inMemory());
        for (int r = 0; r < 3 * Table.CHUNK_ROWS; r++) {
            b.setLong(0, r % 1000);
            b.setLong(1, (r * 31L) % 997);
            b.endRow();
        }
        Table table = b.build();
        ScanNode scan = new ScanNode(table, List.of(ScanNode.ScanColumn.value(0), ScanNode.ScanColumn.value(1)), null);
        groups = new AggregateNode(scan, new int[] {0}, List.of(new AggCall(Function.SUM, 1, false, -1, "s",
                DataType.BIGINT, false)));
        ScanNode again = new ScanNode(table, List.of(ScanNode.ScanColumn.value(1)), null);
        total = new AggregateNode(again, new int[0], List.of(new AggCall(Function.SUM, 0, false, -1, "total",
                DataType.BIGINT, true)));
        // groups whose sum passes a thousandth of the total (the average group's sum)
        Call condition = new Call(Call.Op.GT, List.of(new Call(Call.Op.MULTIPLY, List.of(
                new ColumnRef(1, DataType.BIGINT, false), new Literal(1000L, DataType.BIGINT)), DataType.BIGINT, false),
                new ColumnRef(2, DataType.BIGINT, true)), DataType.BOOLEAN, true);
        compared = new HashJoinNode(groups, total, JoinKind.INNER, new int[0], new int[0], condition, false, 0);
    }

    @Test
    void theGroupsPlacerLearnsTheConditionAndTheScalarWhoseRowTheDeviceGetsOnce() {
        Recording accelerator = new Recording();
        PipelineGraph graph = PipelineGraph.of(compared, accelerator.placer(), Settings.DEFAULT);
        GroupsWanted wanted = accelerator.wanted.get(groups);
        assertSame(compared.residual(), wanted.having());
        assertSame(total, wanted.scalar());
        assertEquals(GroupsWanted.ALL, accelerator.wanted.get(total), "the scalar's own rows are all wanted");

        List<List<Object>> expected = rows(PipelineGraph.cpu(compared), null);
        assertEquals(expected, rows(graph, accelerator));
        assertEquals(1, accelerator.scalarRuns, "the scalar ran once, for the device plan and the CPU's join");
        assertEquals(1, accelerator.scalarRows.rows());
        assertFalse(expected.isEmpty());
        assertTrue(expected.size() < 1000, "some groups fail the condition");
    }

    @Test
    void aJoinOnKeysWithAScalarIsWantedAsTheirEqualityAndABuildOfManyRowsAsNothing() {
        HashJoinNode onKeys = new HashJoinNode(groups, total, JoinKind.INNER, new int[] {1}, new int[] {0}, null, false, 0);
        Recording accelerator = new Recording();
        PipelineGraph.of(onKeys, accelerator.placer(), Settings.DEFAULT);
        Call equality = (Call) accelerator.wanted.get(groups).having();
        assertEquals(Call.Op.EQ, equality.op());
        assertEquals(List.of(1, 2), equality.args().stream().map(a -> ((ColumnRef) a).index()).toList());

        HashJoinNode manyRows = new HashJoinNode(total, groups, JoinKind.INNER, new int[0], new int[0],
                compared.residual(), false, 0);
        Recording other = new Recording();
        PipelineGraph.of(manyRows, other.placer(), Settings.DEFAULT);
        assertNull(other.wanted.get(total).having());
        assertEquals(GroupsWanted.ALL, other.wanted.get(groups));
    }

    private static List<List<Object>> rows(PipelineGraph graph, Accelerator accelerator) {
        try (Executor executor = new Executor(2, null, accelerator)) {
            QueryResult r = executor.collect(graph, new QueryContext(Settings.DEFAULT));
            List<List<Object>> rows = new ArrayList<>(r.rows());
            rows.sort((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)));
            return rows;
        }
    }

    /**
     * Places every aggregation on the "device", recording what each was told; the grouped one reads
     * the scalar its wanted groups name, the scalar one counts its runs; both hand their work back to the CPU.
     */
    private static final class Recording extends StandInAccelerator {
        final Map<PlanNode, GroupsWanted> wanted = new IdentityHashMap<>();
        int scalarRuns;
        Batch scalarRows;

        @Override
        Placement aggregatePlaced(AggregateNode node, GroupsWanted w) {
            wanted.put(node, w);
            return Placement.gpu("test", devicePlan(w.scalar() == null ? List.of() : List.of(w.scalar()), null, false));
        }

        @Override
        public Optional<Batch> aggregate(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
            if (node == total) {
                scalarRuns++;
            } else {
                scalarRows = inputs.builds().get(0);
            }
            return Optional.empty();
        }
    }
}
