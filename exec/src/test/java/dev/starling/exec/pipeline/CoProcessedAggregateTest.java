package dev.starling.exec.pipeline;

import static dev.starling.exec.pipeline.SharingAccelerator.sortedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.op.HashAggregateSink;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.AggregateNode.Function;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An aggregation shared between the CPU workers and an accelerator (here one that aggregates its
 * claimed chunks on its own thread, standing in for the GPU's part) answers as the CPU alone does,
 * whichever of them claims which chunks (the split varies from run to run; the merge of the
 * accelerator's states with the CPU workers' groups is also checked on a fixed split), also when
 * the accelerator gives up after claiming chunks; a failure of the accelerator fails the query.
 */
class CoProcessedAggregateTest {
    private static final int ROWS = 12 * Table.CHUNK_ROWS + 1234;
    private static Table table;
    private static AggregateNode aggregate;

    @BeforeAll
    static void data() {
        TableBuilder b = new TableBuilder(new TableSchema("t", List.of(new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of()), Catalog.inMemory());
        for (int r = 0; r < ROWS; r++) {
            b.setLong(0, (r * 7919L) % 97);
            b.setLong(1, (r * 31L) % 100_003 - 50_000);
            b.endRow();
        }
        table = b.build();
        ScanNode scan = new ScanNode(table, List.of(ScanNode.ScanColumn.value(0), ScanNode.ScanColumn.value(1)), null);
        aggregate = new AggregateNode(scan, new int[] {0}, List.of(
                new AggCall(Function.COUNT_STAR, -1, false, -1, "n", DataType.BIGINT, false),
                new AggCall(Function.SUM, 1, false, -1, "s", DataType.BIGINT, false),
                new AggCall(Function.MIN, 1, false, -1, "mn", DataType.BIGINT, false),
                new AggCall(Function.MAX, 1, false, -1, "mx", DataType.BIGINT, false),
                new AggCall(Function.AVG, 1, false, -1, "a", DataType.DOUBLE, false)));
    }

    @Test
    void theSharedAggregationAnswersAsTheCpuAlone() {
        List<String> expected = sortedRows(aggregate, null);
        for (int i = 0; i < 5; i++) {
            ChunkAggregator accelerator = new ChunkAggregator(Behaviour.AGGREGATE);
            assertEquals(expected, sortedRows(aggregate, accelerator));
            assertTrue(accelerator.runs.get() == 1, "the accelerator's part ran once");
        }
    }

    @Test
    void theAcceleratorsStatesMergeWithTheCpuWorkersGroups() {
        HashAggregateSink sink = new HashAggregateSink(aggregate);
        HashAggregateSink.Groups cpu = sink.createLocal();
        for (int c = 0; c < 5; c++) {
            ColumnChunk k = table.column(0).chunks().get(c);
            ColumnChunk v = table.column(1).chunks().get(c);
            long[] keys = new long[k.rows()];
            long[] values = new long[k.rows()];
            for (int r = 0; r < keys.length; r++) {
                keys[r] = k.getLong(r);
                values[r] = v.getLong(r);
            }
            sink.accept(cpu, new Batch(new Vector[] {Vector.ofLongs(DataType.BIGINT, keys, null),
                    Vector.ofLongs(DataType.BIGINT, values, null)}, keys.length));
        }
        TreeMap<Long, long[]> rest = new TreeMap<>();
        for (int c = 5; c < table.chunkCount(); c++) {
            ChunkAggregator.add(rest, c);
        }
        sink.finish(new ArrayList<>(List.of(cpu, sink.local(ChunkAggregator.states(rest)))));
        List<String> merged = new ArrayList<>();
        Batch b = sink.result();
        for (int r = 0; r < b.rows(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < b.width(); c++) {
                row.add(b.column(c).value(r));
            }
            merged.add(row.toString());
        }
        merged.sort(Comparator.naturalOrder());
        assertEquals(sortedRows(aggregate, null), merged);
    }

    @Test
    void anAcceleratorGivingUpAfterClaimingChunksLosesNoRows() {
        List<String> expected = sortedRows(aggregate, null);
        for (int i = 0; i < 5; i++) {
            assertEquals(expected, sortedRows(aggregate, new ChunkAggregator(Behaviour.GIVE_UP)));
        }
    }

    @Test
    void anAcceleratorFailureFailsTheQuery() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> sortedRows(aggregate, new ChunkAggregator(Behaviour.FAIL)));
        assertEquals("the accelerator failed", e.getMessage());
    }

    private enum Behaviour { AGGREGATE, GIVE_UP, FAIL }

    /** Shares every aggregation; its part sums the chunks it claims, two at a time, by key. */
    private static final class ChunkAggregator extends SharingAccelerator {
        private final Behaviour behaviour;
        final AtomicInteger runs = new AtomicInteger();

        ChunkAggregator(Behaviour behaviour) {
            this.behaviour = behaviour;
        }

        @Override
        public Optional<SharedPart> share(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
            return Optional.of(new SharedPart() {
                @Override
                public ScanNode fact() {
                    return (ScanNode) node.input();
                }

                @Override
                public List<PlanNode> sharedBuilds() {
                    return List.of();
                }

                @Override
                public Optional<GroupStates> run(MorselDispatcher morsels, SharedBuilds tables) {
                    runs.incrementAndGet();
                    TreeMap<Long, long[]> groups = new TreeMap<>();
                    for (int[] batch = morsels.claimBatch(2); batch != null; batch = morsels.claimBatch(2)) {
                        if (behaviour == Behaviour.GIVE_UP) {
                            return Optional.empty();
                        }
                        if (behaviour == Behaviour.FAIL) {
                            throw new IllegalStateException("the accelerator failed");
                        }
                        for (int c = batch[0]; c < batch[1]; c++) {
                            add(groups, c);
                        }
                    }
                    if (behaviour == Behaviour.FAIL) {
                        throw new IllegalStateException("the accelerator failed");
                    }
                    return Optional.of(states(groups));
                }
            });
        }

        /** Per key: count, sum, min, max. */
        private static void add(TreeMap<Long, long[]> groups, int chunk) {
            ColumnChunk keys = table.column(0).chunks().get(chunk);
            ColumnChunk values = table.column(1).chunks().get(chunk);
            for (int r = 0; r < keys.rows(); r++) {
                long v = values.getLong(r);
                long[] g = groups.computeIfAbsent(keys.getLong(r), k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                g[0]++;
                g[1] += v;
                g[2] = Math.min(g[2], v);
                g[3] = Math.max(g[3], v);
            }
        }

        private static GroupStates states(TreeMap<Long, long[]> groups) {
            int n = groups.size();
            long[] keys = new long[n];
            long[][] columns = new long[4][n];
            int i = 0;
            for (var e : groups.entrySet()) {
                keys[i] = e.getKey();
                for (int s = 0; s < 4; s++) {
                    columns[s][i] = e.getValue()[s];
                }
                i++;
            }
            long[] counts = columns[0];
            return new GroupStates(new Vector[] {Vector.ofLongs(DataType.BIGINT, keys, null)}, n, List.of(
                    new GroupStates.CallStates(counts, null, null),
                    new GroupStates.CallStates(counts, columns[1], null),
                    new GroupStates.CallStates(counts, columns[2], null),
                    new GroupStates.CallStates(counts, columns[3], null),
                    new GroupStates.CallStates(counts, columns[1], null)));
        }
    }
}
