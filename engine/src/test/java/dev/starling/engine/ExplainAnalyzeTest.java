package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * EXPLAIN ANALYZE runs the query and answers with its time and rows, then its plan with what each
 * pipeline did: where it ran, its time and the rows it handed on; on the GPU, the kernel's time
 * beside its floor.
 */
class ExplainAnalyzeTest {
    private static final Pattern RAN = Pattern.compile(
            "ran in [0-9.]+ ms, ([0-9,]+) rows, state memory at most [0-9.]+ (B|KB|MB|GB)");
    private static final Pattern PIPELINE = Pattern.compile("\\[pipeline (\\d+), [^\\n]*\\]  \\{([^}]*)}$");
    /** Where a pipeline ran, and its time and rows when it ran apart (not built by the GPU pipeline it feeds). */
    private static final Pattern ACTUAL = Pattern.compile("ran on (cpu|gpu)[^;]*(; [0-9.]+ ms, ([0-9,]+) rows.*)?");

    @Test
    void everyTpchPipelineShowsWhereItRanAndTheRowsItHandedOn() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                assertAnalyzed(db, "TPC-H Q" + q, TpchQueries.query(q), Settings.DEFAULT);
            }
        }
    }

    @Test
    void onlyAQueryCanBeAnalyzed() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.001, "");
            long regions = (Long) db.query("SELECT count(*) FROM region").rows().get(0).get(0);
            StarlingSqlException e = assertThrows(StarlingSqlException.class,
                    () -> db.query("EXPLAIN ANALYZE INSERT INTO region VALUES (9, 'X', 'y')"));
            assertTrue(e.getMessage().startsWith("EXPLAIN ANALYZE runs a query"), e.getMessage());
            assertEquals(regions, db.query("SELECT count(*) FROM region").rows().get(0).get(0), "nothing was written");
            assertThrows(StarlingSqlException.class, () -> db.query("explain analyze EXPLAIN SELECT 1"));
            PreparedQuery withParameter = db.prepare("explain  analyze SELECT r_name FROM region WHERE r_regionkey = ?");
            assertEquals(PreparedQuery.PLAN, withParameter.fields());
            List<List<Object>> lines = db.query(db.bind(withParameter, List.of(2))).rows();
            Matcher ran = RAN.matcher((String) lines.get(0).get(0));
            assertTrue(ran.matches(), lines.toString());
            assertEquals("1", ran.group(1));
        }
    }

    @Test
    @Tag("gpu")
    void withTheGpuForcedItsPipelinesShowTheirKernelsBesideTheirFloor() {
        try (Starling db = Starling.inMemory()) {
            assumeTrue(db.gpu().isPresent(), "no GPU");
            TpchGenerator.generate(db.catalog(), 0.1, "");
            Settings gpu = Settings.DEFAULT.withBackend(BackendMode.GPU);
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                assertAnalyzed(db, "TPC-H Q" + q, TpchQueries.query(q), gpu);
            }
            String q6 = String.join("\n", lines(db, TpchQueries.query(6), gpu));
            assertTrue(Pattern.compile("ran on gpu; [0-9.]+ ms, 1 rows; kernel [0-9.]+ ms \\(its columns, [0-9.]+ MB, read "
                    + "whole in [0-9.]+ ms\\), inputs on the device in").matcher(q6).find(), q6);
        }
    }

    /**
     * EXPLAIN ANALYZE of {@code sql} under {@code settings}: its first line counts the query's rows,
     * and each pipeline ran where it was placed and shows the rows it handed on: the result's
     * pipeline, the query's rows.
     */
    private static void assertAnalyzed(Starling db, String label, String sql, Settings settings) {
        long expected = db.query(db.prepare(sql, settings), db.newContext(settings)).rows().size();
        List<String> lines = lines(db, sql, settings);
        Matcher ran = RAN.matcher(lines.get(0));
        assertTrue(ran.matches(), label + ": " + lines.get(0));
        assertEquals(expected, rows(ran.group(1)), label);
        PipelineGraph graph = db.prepare(sql, settings).graph();
        int shown = 0;
        for (String line : lines.subList(1, lines.size())) {
            Matcher p = PIPELINE.matcher(line);
            if (!p.find()) {
                assertFalse(line.contains("[pipeline "), label + ": " + line);
                continue;
            }
            shown++;
            int id = Integer.parseInt(p.group(1));
            Matcher actual = ACTUAL.matcher(p.group(2));
            assertTrue(actual.matches(), label + ": " + line);
            assertEquals(graph.pipelines().get(id).placement().device(), actual.group(1), label + ": " + line);
            if (id == 0) {
                assertEquals(expected, rows(actual.group(3)), label + ": " + line);
            }
        }
        assertEquals(graph.pipelines().size(), shown, label + ": every pipeline is shown\n" + String.join("\n", lines));
    }

    private static List<String> lines(Starling db, String sql, Settings settings) {
        PreparedQuery q = db.prepare("EXPLAIN ANALYZE " + sql, settings);
        return db.query(q, db.newContext(settings)).rows().stream().map(r -> (String) r.get(0)).toList();
    }

    private static long rows(String counted) {
        return Long.parseLong(counted.replace(",", ""));
    }
}
