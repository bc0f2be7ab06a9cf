package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What EXPLAIN shows is what runs: every pipeline of a query's graph that an accelerator could take
 * (and every join input whose rows it was given) runs, and each pipeline that runs does so where the graph placed it: on the CPU here, and with the
 * GPU forced on the GPU host (tag gpu), where the GPU hands none back.
 */
class ExecutedPlacementTest {
    @Test
    void everyTpchAndSsbPipelineRunsWherePlaced() {
        assertAllRunWherePlaced(0.01, Settings.DEFAULT);
    }

    @Test
    @Tag("gpu")
    void withTheGpuForcedEveryPipelineRunsWherePlaced() {
        assertAllRunWherePlaced(0.1, Settings.DEFAULT.withBackend(BackendMode.GPU));
        assertAllRunWherePlaced(0.1, Settings.DEFAULT.withBackend(BackendMode.BOTH));
    }

    private static void assertAllRunWherePlaced(double scaleFactor, Settings settings) {
        try (Starling tpch = Starling.inMemory(); Starling ssb = Starling.inMemory()) {
            assumeTrue(settings.backend() == BackendMode.AUTO || tpch.gpu().isPresent(), "no GPU");
            TpchGenerator.generate(tpch.catalog(), scaleFactor, "");
            SsbGenerator.generate(ssb.catalog(), scaleFactor, "");
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                assertRunsWherePlaced(tpch, "TPC-H Q" + q, TpchQueries.query(q), settings);
            }
            for (String q : SsbQueries.names()) {
                assertRunsWherePlaced(ssb, "SSB Q" + q, SsbQueries.query(q), settings);
            }
        }
    }

    private static void assertRunsWherePlaced(Starling db, String label, String sql, Settings settings) {
        PreparedQuery q = db.prepare(sql, settings);
        QueryContext ctx = db.newContext(settings);
        db.execute(q, ctx, batch -> { });
        Map<Integer, String> ran = new TreeMap<>(ctx.ranOn());
        Map<Integer, String> planned = new TreeMap<>();
        for (PipelineGraph.Pipeline p : q.graph().pipelines()) {
            if (p.role().offered() || q.graph().rowsOnDevice(p) || ran.containsKey(p.id())) {
                planned.put(p.id(), p.placement().device());
            }
        }
        assertEquals(planned, ran, label + ": where each pipeline was placed and where it ran");
    }
}
