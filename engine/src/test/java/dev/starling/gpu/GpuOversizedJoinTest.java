package dev.starling.gpu;

import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.run.PipelineGraph;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.exec.run.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * On the GPU host: a hash join whose table does not fit the device memory budget (52 MB, against
 * 24 MB of fact columns, 8 MB of dimension arrays and a 32 MB table, filtered on the build side or
 * not) runs on the GPU,
 * with a hybrid table (most of its slots in host memory read over the link) or partitioned (both
 * sides partitioned, partitions spilled to host memory), and answers as the CPU backend does;
 * device memory returns to its baseline. Shared with the CPU workers, the join's table is built
 * once in host memory, which both probe, and the answer is the same. Aggregate states past the budget spill to host memory and still run on the GPU. EXPLAIN
 * says which the model picks and why.
 */
@Tag("gpu")
class GpuOversizedJoinTest {
    private static final String GROUPED =
            "SELECT h.name, COUNT(*), SUM(f.amt), SUM(h.weight) FROM f JOIN h ON f.k = h.code GROUP BY h.name";
    /** 600K groups of 7 aggregate slots (67 MB of states, past the whole budget). */
    private static final String BY_CODE = "SELECT h.code, COUNT(*), SUM(f.amt), MIN(f.amt), MAX(f.amt) "
            + "FROM f JOIN h ON f.k = h.code GROUP BY h.code";
    private static final int DIMENSION_ROWS = 600_000;
    private static final long BUDGET = 52 << 20;
    private static final int FACT_ROWS = 2_000_000;

    @ParameterizedTest
    @CsvSource({
        "HYBRID, GPU, '" + GROUPED + "'",
        "HYBRID, GPU, 'SELECT COUNT(*), SUM(f.amt) FROM f JOIN h ON f.k = h.code WHERE h.weight >= 10'",
        "HYBRID, BOTH, '" + GROUPED + "'",
        "PARTITIONED, GPU, '" + GROUPED + "'",
        "PARTITIONED, GPU, 'SELECT COUNT(*), SUM(f.amt) FROM f JOIN h ON f.k = h.code WHERE h.weight >= 10'",
        "AUTO, BOTH, 'SELECT COUNT(*), SUM(f.amt) FROM f JOIN h ON f.k = h.code WHERE h.weight >= 10'"
    })
    void aHashTablePastTheBudgetRunsOnTheGpu(Settings.OversizedJoin mode, BackendMode backend, String sql) {
        GpuBackend gpu = GpuBackend.detect(0, BUDGET).orElse(null);
        assumeTrue(gpu != null, "no GPU");
        Catalog catalog = Catalog.inMemory();
        data(catalog);
        PlanNode plan = new SqlPlanner(catalog).plan(sql).plan();
        Settings settings = Settings.DEFAULT.withBackend(backend).with("oversized_join", mode.name());
        try (gpu; Executor cpu = new Executor(4, catalog); Executor withGpu = new Executor(4, catalog, gpu)) {
            QueryResult expected = cpu.collect(plan);
            QueryResult actual = withGpu.collect(PipelineGraph.of(plan, gpu.planner(catalog), settings), new QueryContext(settings));
            assertEquals(sorted(expected), sorted(actual));
            assertEquals(1, gpu.runs(), "the join ran on the GPU");
            if (backend == BackendMode.BOTH) {
                assertEquals(DimensionHashTable.bytesFor(DIMENSION_ROWS), gpu.lastRun().hostTableBytes(),
                        "the table, shared with the CPU workers, is all in host memory");
            } else if (mode == Settings.OversizedJoin.HYBRID) {
                assertTrue(gpu.lastRun().hostTableBytes() >= 4 << 20, "part of the table stayed on the host: "
                        + gpu.lastRun().hostTableBytes());
            } else {
                assertEquals(1, gpu.lastRun().partitionedJoins(), "the join ran partitioned");
                assertTrue(gpu.lastRun().spilledBytes() > 0, "partitions spilled to host memory");
            }
            assertEquals(0, gpu.device().memory().used() - gpu.columnCache().heldBytes(),
                    "device memory back to its baseline");
        }
    }

    @ParameterizedTest
    @EnumSource(value = BackendMode.class, names = {"GPU", "BOTH"})
    void aggregateStatesPastTheBudgetLiveInHostMemory(BackendMode backend) {
        GpuBackend gpu = GpuBackend.detect(0, BUDGET).orElse(null);
        assumeTrue(gpu != null, "no GPU");
        Catalog catalog = Catalog.inMemory();
        data(catalog);
        PlanNode plan = new SqlPlanner(catalog).plan(BY_CODE).plan();
        try (gpu; Executor cpu = new Executor(4, catalog); Executor withGpu = new Executor(4, catalog, gpu)) {
            QueryResult expected = cpu.collect(plan);
            Settings settings = Settings.DEFAULT.withBackend(backend);
            QueryResult actual = withGpu.collect(PipelineGraph.of(plan, gpu.planner(catalog), settings), new QueryContext(settings));
            assertEquals(sorted(expected), sorted(actual));
            assertEquals(1, gpu.runs(), "the aggregation ran on the GPU");
            assertTrue(gpu.lastRun().hostStateBytes() >= 4 << 20, "part of the states stayed on the host: "
                    + gpu.lastRun().hostStateBytes());
            assertEquals(0, gpu.device().memory().used() - gpu.columnCache().heldBytes(),
                    "device memory back to its baseline");
        }
    }

    @Test
    void explainSaysHowAnOversizedJoinRuns() {
        GpuBackend gpu = GpuBackend.detect(0, BUDGET).orElse(null);
        assumeTrue(gpu != null, "no GPU");
        Catalog catalog = Catalog.inMemory();
        data(catalog);
        try (gpu) {
            AggregateNode aggregate = PlanNodes.all(new SqlPlanner(catalog).plan(GROUPED).plan(), AggregateNode.class).get(0);
            Settings settings = Settings.DEFAULT.withBackend(BackendMode.GPU);
            String auto = gpu.planner(catalog).aggregate(aggregate, GroupsWanted.ALL, PlanEstimates.NONE, settings).reason();
            assertTrue(auto.contains("past the budget: ") && auto.contains(" join (predicted faster"), auto);
            for (String mode : List.of("hybrid", "partitioned")) {
                String forced = gpu.planner(catalog).aggregate(aggregate, GroupsWanted.ALL, PlanEstimates.NONE, settings.with("oversized_join", mode)).reason();
                assertTrue(forced.contains(mode + " join (oversized_join = " + mode), forced);
            }
            String both = gpu.planner(catalog).aggregate(aggregate, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT.withBackend(BackendMode.BOTH)).reason();
            assertTrue(both.contains("the tables of dimensions [0] built once in host memory for both"), both);
        }
    }

    private static void data(Catalog catalog) {
        TableBuilder h = new TableBuilder(new TableSchema("h", List.of(
                new ColumnSchema("code", DataType.BIGINT, false),
                new ColumnSchema("name", DataType.varchar(4), false),
                new ColumnSchema("weight", DataType.INTEGER, false)), List.of(), List.of()), catalog);
        for (int r = 0; r < DIMENSION_ROWS; r++) {
            h.setLong(0, 7L * r + 3);
            h.setString(1, "n" + r % 10);
            h.setLong(2, r % 100);
            h.endRow();
        }
        catalog.put(h.build());
        TableBuilder f = new TableBuilder(new TableSchema("f", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("amt", DataType.INTEGER, false)), List.of(), List.of()), catalog);
        SplittableRandom random = new SplittableRandom(5);
        for (int r = 0; r < FACT_ROWS; r++) {
            // one key in ten matches no dimension row
            f.setLong(0, 7L * random.nextInt(DIMENSION_ROWS) + (r % 10 == 0 ? 4 : 3));
            f.setLong(1, random.nextInt(1000));
            f.endRow();
        }
        catalog.put(f.build());
    }

    private static List<String> sorted(QueryResult r) {
        List<String> rows = new ArrayList<>(r.rows().stream().map(Object::toString).toList());
        rows.sort(Comparator.naturalOrder());
        return rows;
    }
}
