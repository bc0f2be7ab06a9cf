package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.accel.Placement;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.plan.GpuPlanner;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.gen.TpchGenerator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Placement under {@code auto}, planned for the H100's profile without a GPU: the GPU produces at
 * most a bounded number of result rows, which it hands back whole where the CPU would stream them
 * to the client, but the rows of a join's input, which a join on the CPU consumes whole before
 * anything above it runs, however many are expected; a join table built on the CPU counts as the
 * rows the optimizer expects of it; the plan over an aggregation's groups runs on the GPU only
 * where it keeps many of them from coming back.
 */
class AutoPlacementTest {
    private static final Settings AUTO = Settings.DEFAULT.withBackend(BackendMode.AUTO);
    private static Starling db;
    private static GpuPlanner planner;

    @BeforeAll
    static void generate() {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.2, "");
        planner = GpuPlanner.forProfile(DeviceProfile.H100_80GB, db.catalog());
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /**
     * Over Q14's one group the CPU computes the projection; over the orders' lineitem groups, a
     * HAVING that the terms the GPU applies while compacting cannot express runs on the GPU, and
     * one they can is left to them and the CPU.
     */
    @Test
    void thePlanOverTheGroupsIsTheGpusWhereItKeepsManyBack() {
        String groups = "SELECT l_orderkey, SUM(l_quantity) FROM lineitem GROUP BY l_orderkey HAVING ";
        assertFalse(computedFromGroups(dev.starling.storage.gen.TpchQueries.query(14)));
        assertTrue(computedFromGroups(groups + "SUM(l_quantity) * 2 - MIN(l_quantity) > 300"));
        assertFalse(computedFromGroups(groups + "SUM(l_quantity) > 300"));
    }

    private static boolean computedFromGroups(String sql) {
        SqlPlanner.Plan planned = new SqlPlanner(db.catalog()).plan(sql);
        return dev.starling.exec.run.PipelineGraph.of(planned.plan(), planned.estimates(), planner, AUTO).pipelines()
                .stream().anyMatch(p -> p.placement().reason().contains("computed from the groups on the GPU"));
    }

    @Test
    void manyRowsGoToTheGpuForAJoinsInputButNotForTheResult() {
        SqlPlanner.Plan planned = new SqlPlanner(db.catalog())
                .plan("SELECT l_orderkey, l_partkey FROM lineitem WHERE l_quantity < 40");
        Placement result = planner.rows(planned.plan(), null, planned.estimates(), AUTO);
        assertFalse(result.accelerated(), result.describe());
        assertTrue(result.reason().endsWith("result rows: the GPU hands rows back whole, the CPU streams them"),
                result.describe());
        Placement joinInput = planner.joinInput(planned.plan(), planned.estimates(), AUTO);
        assertTrue(joinInput.accelerated(), joinInput.describe());
    }

    /**
     * A join table built on the CPU from an aggregation's groups (TPC-H Q20's lineitem sums by
     * part and supplier) counts as the groups the optimizer expects, not the aggregation's input
     * rows, which bound them.
     */
    @Test
    void aJoinTableOfGroupsCountsTheGroupsExpected() {
        // ~14,000 groups expected; their range is lineitem's 1.2M rows, which would outweigh its scan
        SqlPlanner.Plan planned = new SqlPlanner(db.catalog()).plan("SELECT l_orderkey FROM lineitem JOIN "
                + "(SELECT l_suppkey AS sk, l_linenumber AS ln, sum(l_quantity) AS q FROM lineitem "
                + "GROUP BY l_suppkey, l_linenumber) s ON l_suppkey = s.sk AND l_linenumber = s.ln WHERE l_quantity * 1000 > s.q");
        Placement rows = planner.joinInput(planned.plan(), planned.estimates(), AUTO);
        assertTrue(rows.accelerated(), rows.describe());
    }
}
