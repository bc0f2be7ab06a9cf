package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.run.PlanCompiler;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What EXPLAIN shows is what runs: every pipeline of a query's graph that an accelerator could take
 * runs, and each pipeline that runs does so where the graph placed it. On the CPU here; with the
 * GPU forced on the GPU host (tag gpu), where the only pipelines the GPU may hand back are those
 * listed, whose size the planner cannot know.
 */
class ExecutedPlacementTest {
    /**
     * TPC-H Q18's grouping of its orders and customers: the planner cannot tell how many dense
     * groups the dimensions' tuples take until they are built (2.25 billion at SF 0.1).
     */
    private static final Map<String, Set<Integer>> HANDED_BACK = Map.of("TPC-H Q18", Set.of(2));

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
            if (p.role().offered() || ran.containsKey(p.id())) {
                boolean handedBack = p.placement().accelerated() && HANDED_BACK.getOrDefault(label, Set.of()).contains(p.id());
                planned.put(p.id(), handedBack ? PlanCompiler.HANDED_BACK : p.placement().device());
            }
        }
        assertEquals(planned, ran, label + ": where each pipeline was placed and where it ran");
    }
}
