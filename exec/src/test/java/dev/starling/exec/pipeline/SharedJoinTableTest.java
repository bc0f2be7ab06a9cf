package dev.starling.exec.pipeline;

import static dev.starling.exec.pipeline.SharingAccelerator.sortedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.op.GroupStates;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A hash join whose table the accelerator shares with the CPU workers (Lutz's thesis' placement for
 * large build sides): the CPU workers probe the accelerator's table instead of building their own,
 * and answer as the CPU alone does, for INNER and SEMI joins, with probe keys that are NULL or
 * missing from the build side; the table is closed once the aggregation is done. When the
 * accelerator publishes nothing, the CPU workers build their own table.
 */
class SharedJoinTableTest {
    private static final int FACT_ROWS = 5 * Table.CHUNK_ROWS + 777;
    private static final int DIM_ROWS = 5000;
    private static ScanNode fact;
    private static ScanNode dim;

    @BeforeAll
    static void data() {
        TableBuilder f = new TableBuilder(new TableSchema("f", List.of(new ColumnSchema("k", DataType.BIGINT, true),
                new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of()), Catalog.inMemory());
        for (int r = 0; r < FACT_ROWS; r++) {
            if (r % 101 == 0) {
                f.setNull(0);
            } else {
                f.setLong(0, (r * 7919L) % (DIM_ROWS + 300));
            }
            f.setLong(1, r % 1000);
            f.endRow();
        }
        TableBuilder d = new TableBuilder(new TableSchema("d", List.of(new ColumnSchema("code", DataType.BIGINT, false),
                new ColumnSchema("w", DataType.BIGINT, false)), List.of(), List.of()), Catalog.inMemory());
        for (int r = DIM_ROWS - 1; r >= 0; r--) {
            d.setLong(0, r * 3L % DIM_ROWS);
            d.setLong(1, r % 17);
            d.endRow();
        }
        fact = new ScanNode(f.build(), List.of(ScanNode.ScanColumn.value(0), ScanNode.ScanColumn.value(1)), null);
        dim = new ScanNode(d.build(), List.of(ScanNode.ScanColumn.value(0), ScanNode.ScanColumn.value(1)), null);
    }

    @Test
    void theCpuWorkersProbeTheAcceleratorsTable() {
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.SEMI)) {
            AggregateNode plan = plan(kind);
            List<String> expected = sortedRows(plan, null);
            TableSharer sharer = new TableSharer(true);
            assertEquals(expected, sortedRows(plan, sharer), kind + " join");
            assertTrue(sharer.lookups.get() > 0, "the CPU workers looked their keys up in the shared table");
            assertEquals(1, sharer.closed.get(), "the shared table is closed once");
        }
    }

    @Test
    void withoutAPublishedTableTheCpuWorkersBuildTheirOwn() {
        AggregateNode plan = plan(JoinKind.INNER);
        TableSharer sharer = new TableSharer(false);
        assertEquals(sortedRows(plan, null), sortedRows(plan, sharer));
        assertEquals(0, sharer.lookups.get());
    }

    /** Per fact value v (INNER: and dimension weight w), the count and sum of the joined rows. */
    private static AggregateNode plan(JoinKind kind) {
        HashJoinNode join = new HashJoinNode(fact, dim, kind, new int[] {0}, new int[] {0}, null, false, 0);
        int[] keys = kind == JoinKind.INNER ? new int[] {3} : new int[] {1};
        return new AggregateNode(join, keys, List.of(
                new AggCall(Function.COUNT_STAR, -1, false, -1, "n", DataType.BIGINT, false),
                new AggCall(Function.SUM, 1, false, -1, "s", DataType.BIGINT, false)));
    }

    /**
     * Shares every aggregation over a join: builds the join's table (a map from key to row) over
     * the build side and publishes it, or publishes nothing; claims no chunk itself, so the CPU
     * workers' groups are the whole result.
     */
    private static final class TableSharer extends SharingAccelerator {
        private final boolean publish;
        final AtomicInteger lookups = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        TableSharer(boolean publish) {
            this.publish = publish;
        }

        @Override
        List<PlanNode> inputs(AggregateNode node) {
            return List.of(((HashJoinNode) node.input()).build());
        }

        @Override
        public Optional<SharedPart> share(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
            HashJoinNode join = (HashJoinNode) node.input();
            return Optional.of(new SharedPart() {
                @Override
                public ScanNode fact() {
                    return (ScanNode) join.probe();
                }

                @Override
                public List<PlanNode> sharedBuilds() {
                    return List.of(join.build());
                }

                @Override
                public Optional<GroupStates> run(MorselDispatcher morsels, SharedBuilds tables) {
                    if (publish) {
                        tables.publish(join.build(), table(inputs.builds().get(0)));
                    }
                    return Optional.empty();
                }
            });
        }

        private SharedBuild table(Batch rows) {
            Map<Long, Integer> rowOf = new HashMap<>();
            for (int r = 0; r < rows.rows(); r++) {
                rowOf.put(rows.column(0).longs()[r], r);
            }
            return new SharedBuild() {
                @Override
                public Batch rows() {
                    return rows;
                }

                @Override
                public int rowOf(long key) {
                    lookups.incrementAndGet();
                    return rowOf.getOrDefault(key, -1);
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                }
            };
        }
    }
}
