package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.run.Executor;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On the GPU host: a fact scan reads only the chunks its zone maps may match, and never drops a
 * qualifying row (values on chunk boundaries, NULLs, a chunk of NULLs, nothing left); fact columns
 * not in device memory are copied in while the kernel runs (cold) and then answer from there
 * (hot); with a budget smaller than the fact columns every TPC-H and SSB query still runs on the GPU,
 * its fact streamed through device buffers. Each answer equals the CPU backend's, and device
 * memory returns to its baseline.
 */
@Tag("gpu")
class GpuFactScanTest {
    /** 20 chunks; {@code ts} ascends, one step a row, so that chunk c holds ts in [c * 65536, (c + 1) * 65536). */
    private static final int CHUNKS = 20;
    private static final Settings GPU = Settings.DEFAULT.withBackend(BackendMode.GPU);
    /** Chunk 7's rows have ts NULL. */
    private static final int NULL_CHUNK = 7;

    @Test
    void zoneMapsSkipChunksAndNeverARow() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            db.catalog().put(events(db.catalog(), CHUNKS));
            long edge = 5L * Table.CHUNK_ROWS;
            List<String> queries = List.of(
                    "SELECT COUNT(*), SUM(v), MIN(ts), MAX(ts) FROM events WHERE ts BETWEEN " + (edge - 1) + " AND " + edge,
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts = " + edge,
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts = " + (edge - 1),
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts >= " + (CHUNKS * (long) Table.CHUNK_ROWS - 1),
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts < 1",
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts > " + CHUNKS * (long) Table.CHUNK_ROWS,
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts IN (3, " + edge + ", " + (12L * Table.CHUNK_ROWS + 9) + ")",
                    "SELECT g, COUNT(*), SUM(v) FROM events WHERE ts >= " + (NULL_CHUNK * (long) Table.CHUNK_ROWS - 2)
                            + " AND ts <= " + ((NULL_CHUNK + 1L) * Table.CHUNK_ROWS + 2) + " GROUP BY g",
                    "SELECT g, COUNT(*) FROM events WHERE ts > " + CHUNKS * (long) Table.CHUNK_ROWS + " GROUP BY g",
                    "SELECT ts, v FROM events WHERE ts BETWEEN " + (edge - 3) + " AND " + (edge + 3) + " ORDER BY ts",
                    "SELECT COUNT(*), COUNT(ts), SUM(v) FROM events WHERE v >= 0");
            for (String sql : queries) {
                gpu.columnCache().clear();
                assertTrue(GpuResults.assertSameOnGpu(db, gpu, "cold: " + sql, sql), "did not run on the GPU: " + sql);
                assertTrue(GpuResults.assertSameOnGpu(db, gpu, "hot: " + sql, sql), "did not run on the GPU: " + sql);
            }
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, "two chunks", queries.get(0)));
            String scan = gpu.lastRun().scan();
            assertTrue(scan.startsWith("2 of 20 chunks (zone maps skipped 18)"), scan);
            gpu.columnCache().clear();
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, "cold, two chunks", queries.get(0)));
            assertTrue(gpu.lastRun().scan().contains("columns cached on the device"), gpu.lastRun().scan());
            assertTrue(gpu.device().registrations().bytes() > 0, "table memory page-locked in place");
            String explained = GpuResults.explainedOnGpu(db, queries.get(0));
            assertTrue(explained.contains("zone maps leave 2 of 20 chunks"), explained);
        }
    }

    @Test
    void aFactLargerThanTheBudgetStreams() {
        // 40 chunks of ts, g and v (22 bytes a row): 58 MB of fact columns against a 32 MB budget,
        // streamed through three buffers of 5 chunks (22 MB)
        Catalog catalog = Catalog.inMemory();
        catalog.put(events(catalog, 40));
        try (Budgeted gpu = Budgeted.open(32 << 20, catalog)) {
            for (String sql : List.of("SELECT g, COUNT(*), SUM(v), MIN(ts), MAX(ts) FROM events GROUP BY g",
                    "SELECT COUNT(*), SUM(v) FROM events WHERE ts BETWEEN 100000 AND 900000",
                    "SELECT COUNT(*), COUNT(ts), SUM(v) FROM events WHERE v < 2")) {
                assertTrue(gpu.assertSameAsCpu(sql), "did not run on the GPU: " + sql);
                assertTrue(gpu.backend().lastRun().scan().contains("streamed through device buffers"),
                        gpu.backend().lastRun().scan());
                assertEquals(0, gpu.backend().columnCache().heldBytes(), "a streamed scan keeps nothing");
                assertTrue(gpu.placement(sql).contains("fact columns streamed through device buffers"), gpu.placement(sql));
            }
        }
    }

    @Test
    void tpchAndSsbStreamedAgreeWithTheCpu() {
        // SF 0.1: the fact columns a query reads take 5 to 17 MB, its dimensions' state a few MB; under
        // 8 MB the planner streams the fact of 16 TPC-H queries and of every SSB query
        Catalog tpch = Catalog.inMemory();
        TpchGenerator.generate(tpch, 0.1, "");
        try (Budgeted gpu = Budgeted.open(8 << 20, tpch)) {
            Map<String, String> outcomes = new LinkedHashMap<>();
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                outcomes.put("Q" + q, gpu.outcome(TpchQueries.query(q, 0.1)));
            }
            assertStreamedAtLeast(12, "TPC-H", outcomes);
        }
        Catalog ssb = Catalog.inMemory();
        SsbGenerator.generate(ssb, 0.1, "");
        try (Budgeted gpu = Budgeted.open(8 << 20, ssb)) {
            Map<String, String> outcomes = new LinkedHashMap<>();
            for (String q : SsbQueries.names()) {
                outcomes.put("Q" + q, gpu.outcome(SsbQueries.query(q)));
            }
            assertStreamedAtLeast(SsbQueries.names().size(), "SSB", outcomes);
        }
    }

    private static void assertStreamedAtLeast(int least, String workload, Map<String, String> outcomes) {
        long streamed = outcomes.values().stream().filter(o -> o.contains("streamed")).count();
        assertTrue(streamed >= least, streamed + " " + workload + " queries streamed their fact: " + outcomes);
    }

    /**
     * A GPU backend of its own with a device memory budget (the engine's is the process's, opened
     * once), running plans of {@code catalog} with the GPU forced beside the CPU backend.
     */
    private record Budgeted(GpuBackend backend, Catalog catalog, Executor cpu, Executor withGpu) implements AutoCloseable {
        static Budgeted open(long budget, Catalog catalog) {
            GpuBackend gpu = GpuBackend.detect(0, budget).orElse(null);
            assumeTrue(gpu != null, "no GPU");
            return new Budgeted(gpu, catalog, new Executor(4, catalog), new Executor(4, catalog, gpu));
        }

        /** Whether {@code sql} ran a GPU pipeline; its answer equals the CPU's and device memory returned to its baseline. */
        boolean assertSameAsCpu(String sql) {
            PlanNode plan = new SqlPlanner(catalog).plan(sql).plan();
            QueryResult expected = cpu.collect(plan);
            long runs = backend.runs();
            long baseline = backend.device().memory().used() - backend.columnCache().heldBytes();
            QueryResult actual = withGpu.collect(PipelineGraph.of(plan, backend.planner(catalog), GPU), new QueryContext(GPU));
            assertEquals(baseline, backend.device().memory().used() - backend.columnCache().heldBytes(),
                    sql + ": device memory not back to its baseline");
            boolean ordered = sql.toLowerCase(java.util.Locale.ROOT).contains("order by");
            GpuResults.assertRowsEqual(sql, GpuResults.rows(expected, ordered), GpuResults.rows(actual, ordered));
            return backend.runs() > runs;
        }

        /**
         * Runs {@code sql} as {@link #assertSameAsCpu} does and says how: its GPU pipelines, how many
         * of them streamed their fact columns, and how many the GPU handed to the CPU.
         */
        String outcome(String sql) {
            long runs = backend.runs();
            long streamed = backend.streamedRuns();
            long handedBack = backend.handedBack();
            assertSameAsCpu(sql);
            return String.format("%d on the GPU, %d streamed, %d handed back", backend.runs() - runs,
                    backend.streamedRuns() - streamed, backend.handedBack() - handedBack);
        }

        /** The reason the planner gives for placing {@code sql}'s aggregation. */
        String placement(String sql) {
            PipelineGraph graph = PipelineGraph.of(new SqlPlanner(catalog).plan(sql).plan(), backend.planner(catalog), GPU);
            return graph.pipelines().stream().filter(p -> p.role() == PipelineGraph.Role.AGGREGATE_INPUT)
                    .map(p -> p.placement().reason()).findFirst().orElse("");
        }

        @Override
        public void close() {
            try {
                cpu.close();
                withGpu.close();
            } finally {
                backend.close();
            }
        }
    }

    @Test
    void tpchAndSsbColdAgreeWithTheCpu() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            TpchGenerator.generate(db.catalog(), 0.1, "");
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                gpu.columnCache().clear();
                GpuResults.assertWholeOnGpu(db, gpu, "cold TPC-H Q" + q, TpchQueries.query(q, 0.1));
            }
        }
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElseThrow();
            SsbGenerator.generate(db.catalog(), 0.1, "");
            for (String q : SsbQueries.names()) {
                gpu.columnCache().clear();
                GpuResults.assertWholeOnGpu(db, gpu, "cold SSB Q" + q, SsbQueries.query(q));
            }
        }
    }

    /**
     * {@code events} of {@code chunks} chunks: ts ascending (NULL in chunk {@link #NULL_CHUNK}), g
     * one of 5 groups, v small and sometimes NULL.
     */
    private static Table events(Catalog catalog, int chunks) {
        TableBuilder b = new TableBuilder(new TableSchema("events", List.of(
                new ColumnSchema("ts", DataType.BIGINT, true),
                new ColumnSchema("g", DataType.INTEGER, false),
                new ColumnSchema("v", DataType.BIGINT, true)), List.of(), List.of()), catalog);
        for (int r = 0; r < chunks * Table.CHUNK_ROWS; r++) {
            if (r >> Table.CHUNK_SHIFT == NULL_CHUNK) {
                b.setNull(0);
            } else {
                b.setLong(0, r);
            }
            b.setLong(1, r % 5);
            if (r % 11 == 0) {
                b.setNull(2);
            } else {
                b.setLong(2, r % 7);
            }
            b.endRow();
        }
        return b.build();
    }
}
