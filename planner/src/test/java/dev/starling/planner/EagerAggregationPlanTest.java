package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An aggregation over a LEFT join, grouped by the preserved side's key, runs below the join. */
class EagerAggregationPlanTest {
    private static Catalog catalog;

    @BeforeAll
    static void load() {
        catalog = TestCatalogs.tpch();
    }

    @Test
    void ordersAreCountedPerCustomerBeforeTheJoin() {
        // TPC-H Q13's inner query.
        PlanNode plan = plan("select c_custkey, count(o_orderkey) from customer left outer join orders "
                + "on c_custkey = o_custkey and o_comment not like '%special%requests%' group by c_custkey");
        HashJoinNode join = find(plan, HashJoinNode.class);
        String explained = PlanExplainer.explain(plan);
        assertTrue(join.kind() == JoinKind.LEFT, explained);
        assertTrue(find(join.build(), AggregateNode.class) != null, explained);
        assertTrue(find(plan, AggregateNode.class) == find(join.build(), AggregateNode.class), explained);
        assertTrue(explained.contains("COALESCE"), explained);
    }

    @Test
    void groupsOfSeveralPreservedRowsStayAboveTheJoin() {
        PlanNode plan = plan("select c_nationkey, count(o_orderkey) from customer left outer join orders "
                + "on c_custkey = o_custkey group by c_nationkey");
        HashJoinNode join = find(plan, HashJoinNode.class);
        assertFalse(find(join, AggregateNode.class) != null, PlanExplainer.explain(plan));
    }

    private static PlanNode plan(String sql) {
        return new SqlPlanner(catalog).plan(sql).plan();
    }

    /** The first node of {@code type} in plan order, or null. */
    private static <T extends PlanNode> T find(PlanNode node, Class<T> type) {
        List<T> all = PlanNodes.all(node, type);
        return all.isEmpty() ? null : all.get(0);
    }
}
