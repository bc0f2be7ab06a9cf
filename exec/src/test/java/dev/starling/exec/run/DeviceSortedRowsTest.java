package dev.starling.exec.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryMemoryLimitException;
import dev.starling.exec.QueryResult;
import dev.starling.exec.Settings;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A sort whose input rows an accelerator sorts: the placer learns the sort, the pipeline the sort
 * tops is shown and recorded where the sort ran, and the sort is not run again over the rows that
 * come back; when the accelerator hands the rows back, the CPU computes and sorts them, and the
 * answer is the same. Rows that reach a sort on the host are ordered by the accelerator from the
 * whole of them.
 */
class DeviceSortedRowsTest {
    private static SortNode sort;

    @BeforeAll
    static void plan() {
        TableBuilder b = new TableBuilder(new TableSchema("t", List.of(new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of()), Catalog.inMemory());
        for (int r = 0; r < 3 * Table.CHUNK_ROWS; r++) {
            b.setLong(0, r);
            b.setLong(1, (r * 31L) % 997);
            b.endRow();
        }
        ScanNode scan = new ScanNode(b.build(), List.of(ScanNode.ScanColumn.value(0), ScanNode.ScanColumn.value(1)), null);
        sort = new SortNode(scan, List.of(new SortNode.SortKey(1, true, false), new SortNode.SortKey(0, false, false)),
                5, 20);
    }

    @Test
    void rowsSortedOnTheDeviceAreNotSortedAgain() {
        Sorting accelerator = new Sorting(false);
        PipelineGraph graph = PipelineGraph.of(sort, accelerator.placer(), Settings.DEFAULT);
        assertSame(sort, accelerator.told);
        assertTrue(graph.sortedOnDevice(sort));
        assertEquals("backend=gpu (sorted on the GPU by pipeline 1, which hands its rows on in order)",
                graph.pipelines().get(0).placement().describe());

        QueryContext ctx = new QueryContext(Settings.DEFAULT);
        List<List<Object>> rows = rows(graph, accelerator, ctx);
        assertEquals(rows(PipelineGraph.cpu(sort), null, new QueryContext(Settings.DEFAULT)), rows);
        assertEquals(20, rows.size());
        assertEquals(1, accelerator.runs);
        assertEquals(Map.of(0, "gpu", 1, "gpu"), ctx.ranOn());
    }

    @Test
    void rowsTheDeviceGivesCountAgainstTheMemoryLimit() {
        Sorting accelerator = new Sorting(false);
        PipelineGraph graph = PipelineGraph.of(sort, accelerator.placer(), Settings.DEFAULT);
        QueryContext counted = new QueryContext(Settings.DEFAULT);
        rows(graph, accelerator, counted);
        assertTrue(counted.peakBytes() >= Batch.bytes(20, 2), "held at most " + counted.peakBytes());
        QueryContext limited = new QueryContext(Settings.DEFAULT.with("memory_limit", "100"));
        assertThrows(QueryMemoryLimitException.class, () -> rows(graph, accelerator, limited));
    }

    @Test
    void rowsHandedBackAreSortedOnTheCpu() {
        Sorting accelerator = new Sorting(true);
        PipelineGraph graph = PipelineGraph.of(sort, accelerator.placer(), Settings.DEFAULT);
        QueryContext ctx = new QueryContext(Settings.DEFAULT);
        assertEquals(rows(PipelineGraph.cpu(sort), null, new QueryContext(Settings.DEFAULT)), rows(graph, accelerator, ctx));
        assertEquals(1, accelerator.runs);
        assertEquals(Map.of(0, PlanCompiler.HANDED_BACK, 1, PlanCompiler.HANDED_BACK), ctx.ranOn());
    }

    /**
     * Rows that reach a sort on the host (its input pipeline runs on the CPU) are handed to the
     * accelerator whole and gathered in the order it gives back, unless the sort keeps a top-N of
     * rows streamed from a scan, which the CPU's workers keep bounded as they arrive.
     */
    @Test
    void rowsOnTheHostAreOrderedByTheDeviceButForATopNOfStreamedRows() {
        Ordering accelerator = new Ordering(false);
        PipelineGraph topN = PipelineGraph.of(sort, accelerator.placer(), Settings.DEFAULT);
        assertTrue(topN.sortedByDevice(sort).isEmpty());

        SortNode whole = new SortNode(sort.input(), sort.keys(), 5, -1);
        PipelineGraph graph = PipelineGraph.of(whole, accelerator.placer(), Settings.DEFAULT);
        assertTrue(graph.sortedByDevice(whole).isPresent());
        assertEquals("backend=gpu (test sort)", graph.pipelines().get(0).placement().describe());
        QueryContext ctx = new QueryContext(Settings.DEFAULT);
        List<List<Object>> rows = rows(graph, accelerator, ctx);
        assertEquals(rows(PipelineGraph.cpu(whole), null, new QueryContext(Settings.DEFAULT)), rows);
        assertEquals(3 * Table.CHUNK_ROWS - 5, rows.size());
        assertEquals(1, accelerator.sorts);
        assertEquals(Map.of(0, "gpu", 1, "cpu"), ctx.ranOn());
    }

    /**
     * A top-N over rows the device computes but does not sort is ordered by the device too: those
     * rows come back from it whole, so holding them for the sort costs nothing the CPU's bounded
     * top-N would save.
     */
    @Test
    void aTopNOfRowsTheDeviceComputesIsOrderedThereToo() {
        Ordering accelerator = new Ordering(true);
        PipelineGraph graph = PipelineGraph.of(sort, accelerator.placer(), Settings.DEFAULT);
        assertTrue(graph.sortedByDevice(sort).isPresent());
        QueryContext ctx = new QueryContext(Settings.DEFAULT);
        List<List<Object>> rows = rows(graph, accelerator, ctx);
        assertEquals(rows(PipelineGraph.cpu(sort), null, new QueryContext(Settings.DEFAULT)), rows);
        assertEquals(20, rows.size());
        assertEquals(1, accelerator.sorts);
        assertEquals(Map.of(0, "gpu", 1, "gpu"), ctx.ranOn());
    }

    private static List<List<Object>> rows(PipelineGraph graph, Accelerator accelerator, QueryContext ctx) {
        try (Executor executor = new Executor(2, null, accelerator)) {
            QueryResult r = executor.collect(graph, ctx);
            return r.rows();
        }
    }

    /** {@code top}'s rows, computed on the CPU. */
    private static Batch cpuRows(PlanNode top) {
        List<Batch> batches = new ArrayList<>();
        try (Executor cpu = new Executor(1)) {
            cpu.run(PipelineGraph.cpu(top), new QueryContext(Settings.DEFAULT), batches::add);
        }
        return BatchBuffer.concat(top.output(), batches);
    }

    /**
     * A stand-in accelerator whose placer puts on the "device" only what {@link #rowsPlaced} (of
     * rows that feed a sort) and {@link #sortPlaced} say.
     */
    private abstract static class StandIn extends StandInAccelerator {
        abstract Placement rowsPlaced(SortNode s);

        @Override
        Placement rowsPlaced(PlanNode top, SortNode sort) {
            return sort == null ? Placement.cpu("test") : rowsPlaced(sort);
        }

        @Override
        abstract Placement sortPlaced(SortNode s);
    }

    /**
     * Places every sort of rows on the host on the "device", and orders them by sorting their
     * indexes on the CPU with the sort's keys (longs here, none NULL); with {@code rowsOnDevice},
     * the sort's input rows too, computed unsorted.
     */
    private static final class Ordering extends StandIn {
        private final boolean rowsOnDevice;
        int sorts;

        Ordering(boolean rowsOnDevice) {
            this.rowsOnDevice = rowsOnDevice;
        }

        @Override
        Placement rowsPlaced(SortNode s) {
            return rowsOnDevice ? Placement.gpu("test rows", devicePlan(List.of(), null, false)) : Placement.cpu("test");
        }

        @Override
        public Optional<Batch> rows(PlanNode top, DevicePlan plan, DeviceInputs inputs, BitSet needed, QueryContext ctx) {
            return Optional.of(cpuRows(top));
        }

        @Override
        Placement sortPlaced(SortNode s) {
            return Placement.gpu("test sort", devicePlan(List.of(), null, false));
        }

        @Override
        public Optional<int[]> sort(SortNode node, Batch rows, DevicePlan plan, QueryContext ctx) {
            sorts++;
            Comparator<Integer> order = null;
            for (SortNode.SortKey k : node.keys()) {
                long[] v = rows.column(k.column()).longs();
                Comparator<Integer> byKey = Comparator.comparingLong(i -> v[i]);
                byKey = k.descending() ? byKey.reversed() : byKey;
                order = order == null ? byKey : order.thenComparing(byKey);
            }
            int[] sorted = IntStream.range(0, rows.rows()).boxed().sorted(order).mapToInt(Integer::intValue).toArray();
            int from = (int) Math.min(node.offset(), sorted.length);
            int to = node.limit() < 0 ? sorted.length : (int) Math.min(sorted.length, from + node.limit());
            return Optional.of(Arrays.copyOfRange(sorted, from, to));
        }
    }

    /**
     * Places the rows of a sort's input on the "device" to be sorted there, and runs them by sorting
     * them on the CPU with the sort it was told (or hands them back).
     */
    private static final class Sorting extends StandIn {
        private final boolean handBack;
        SortNode told;
        int runs;

        Sorting(boolean handBack) {
            this.handBack = handBack;
        }

        @Override
        Placement rowsPlaced(SortNode s) {
            told = s;
            return Placement.gpu("test", devicePlan(List.of(), null, true));
        }

        @Override
        Placement sortPlaced(SortNode s) {
            throw new AssertionError("rows sorted on the device reach no sort on the host");
        }

        @Override
        public Optional<Batch> rows(PlanNode top, DevicePlan plan, DeviceInputs inputs, BitSet needed, QueryContext ctx) {
            assertSame(told.input(), top);
            runs++;
            if (handBack) {
                return Optional.empty();
            }
            return Optional.of(cpuRows(told));
        }
    }
}
