package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Subqueries are removed and decorrelated into joins. */
class SubqueryPlanTest {
    private static Catalog catalog;

    @BeforeAll
    static void load() {
        catalog = TestCatalogs.tpch();
    }

    @Test
    void notExistsBecomesAnAntiJoin() {
        PlanNode plan = plan("select c_custkey from customer where not exists "
                + "(select * from orders where o_custkey = c_custkey)");
        assertTrue(hasJoin(plan, JoinKind.ANTI), PlanExplainer.explain(plan));
    }

    @Test
    void inSubqueryBecomesASemiJoin() {
        PlanNode plan = plan("select s_name from supplier where s_suppkey in "
                + "(select ps_suppkey from partsupp where ps_availqty > 10)");
        assertTrue(hasJoin(plan, JoinKind.SEMI), PlanExplainer.explain(plan));
    }

    @Test
    void correlatedScalarSubqueryBecomesAJoinWithAGroupedAggregate() {
        // TPC-H Q17's shape: the per-part average is computed once per part, then joined.
        PlanNode plan = plan("select sum(l_extendedprice) from lineitem, part where p_partkey = l_partkey "
                + "and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey)");
        String explained = PlanExplainer.explain(plan);
        assertTrue(explained.contains("Aggregate group by [") && explained.contains("AVG("), explained);
        assertTrue(hasJoin(plan, JoinKind.INNER), explained);
    }

    private static PlanNode plan(String sql) {
        return new SqlPlanner(catalog).plan(sql).plan();
    }

    private static boolean hasJoin(PlanNode node, JoinKind kind) {
        return node instanceof HashJoinNode j && j.kind() == kind
                || node.inputs().stream().anyMatch(in -> hasJoin(in, kind));
    }
}
