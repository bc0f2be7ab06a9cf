package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.run.Executor;
import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import dev.starling.storage.gen.TpchQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** All 22 TPC-H queries plan into the exec contract, with every subquery decorrelated into joins. */
class TpchPlanTest {
    private static Catalog catalog;

    @BeforeAll
    static void load() {
        catalog = TestCatalogs.tpch();
    }

    static java.util.stream.IntStream queries() {
        return java.util.stream.IntStream.rangeClosed(1, 22);
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void plans(int n) {
        SqlPlanner.Plan plan = new SqlPlanner(catalog).plan(TpchQueries.query(n));
        String explained = PlanExplainer.explain(plan.plan());
        assertFalse(hasCrossJoinWithLargeBuild(plan.plan()), explained);
    }

    /**
     * Every node the plan has carries the optimizer's row estimate: a scan without a filter the
     * rows of its table, an aggregation at most the rows of its input.
     */
    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void estimatesEveryNode(int n) {
        SqlPlanner.Plan plan = new SqlPlanner(catalog).plan(TpchQueries.query(n));
        for (PlanNode node : PlanNodes.all(plan.plan(), PlanNode.class)) {
            double rows = plan.estimates().rows(node).orElseThrow(() -> new AssertionError("no estimate for "
                    + node.describe() + " in\n" + PlanExplainer.explain(plan.plan())));
            if (node instanceof ScanNode s && s.filter() == null) {
                assertEquals(s.table().rowCount(), rows, 0.5, node.describe());
            }
            if (node instanceof AggregateNode a) {
                assertTrue(rows <= plan.estimates().rows(a.input()).orElseThrow(), node.describe());
            }
        }
    }

    /** The plans obey the exec contract: the CPU executor runs them, and the result has the query's columns. */
    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void runs(int n) {
        SqlPlanner.Plan plan = new SqlPlanner(catalog).plan(TpchQueries.query(n));
        try (Executor executor = new Executor(2, catalog)) {
            QueryResult result = executor.collect(plan.plan());
            assertEquals(plan.physical().getRowType().getFieldCount(), result.fields().size());
        }
    }

    /** A join without keys whose build side is a scan of a big table would be a Cartesian product. */
    private static boolean hasCrossJoinWithLargeBuild(PlanNode node) {
        if (node instanceof HashJoinNode j && j.probeKeys().length == 0 && j.build() instanceof dev.starling.exec.plan.ScanNode s
                && s.table().rowCount() > 100) {
            return true;
        }
        return node.inputs().stream().anyMatch(TpchPlanTest::hasCrossJoinWithLargeBuild);
    }
}
