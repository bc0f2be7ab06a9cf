package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SSB star joins become one pipeline: the fact scan probes an array per dimension. */
class StarJoinPlanTest {
    private static Catalog catalog;

    @BeforeAll
    static void load() {
        catalog = TestCatalogs.ssb();
    }

    // SSB Q2.1 ("date" is a reserved word in standard SQL, hence the quotes).
    private static final String Q2_1 = """
            select sum(lo_revenue), d_year, p_brand1
            from lineorder, "date", part, supplier
            where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey
              and p_category = 'MFGR#12' and s_region = 'AMERICA'
            group by d_year, p_brand1
            order by d_year, p_brand1""";

    @Test
    void everyDimensionIsADenseBuildProbedByTheFactScan() {
        PlanNode plan = new SqlPlanner(catalog).plan(Q2_1).plan();
        String explained = PlanExplainer.explain(plan);
        List<HashJoinNode> joins = new ArrayList<>();
        collectJoins(plan, joins);
        assertEquals(3, joins.size(), explained);
        Set<String> dimensions = joins.stream()
                .map(j -> assertInstanceOf(ScanNode.class, j.build(), explained).table().name())
                .collect(Collectors.toSet());
        assertEquals(Set.of("date", "part", "supplier"), dimensions, explained);
        for (HashJoinNode j : joins) {
            assertTrue(j.dense(), explained);
            ScanNode dim = (ScanNode) j.build();
            assertEquals(dim.table().rowCount(), j.denseRange(), explained);
            assertEquals(ScanNode.ScanColumn.Mode.ROW_ID, dim.columns().get(j.buildKeys()[0]).mode(), explained);
        }
        // The probe chain ends in the fact table's scan, which provides the foreign keys' codes.
        PlanNode probe = joins.get(0);
        while (probe instanceof HashJoinNode j) {
            probe = j.probe();
        }
        ScanNode fact = assertInstanceOf(ScanNode.class, probe, explained);
        assertEquals("lineorder", fact.table().name(), explained);
        assertEquals(3, fact.columns().stream().filter(c -> c.mode() == ScanNode.ScanColumn.Mode.CODE).count(), explained);
    }

    @Test
    void filtersAndColumnSelectionsArePushedIntoScans() {
        String sql = "select sum(lo_extendedprice * lo_discount) as revenue from lineorder, \"date\" "
                + "where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25";
        PlanNode plan = new SqlPlanner(catalog).plan(sql).plan();
        String explained = PlanExplainer.explain(plan);
        List<HashJoinNode> joins = new ArrayList<>();
        collectJoins(plan, joins);
        assertEquals(1, joins.size(), explained);
        ScanNode fact = assertInstanceOf(ScanNode.class, joins.get(0).probe(), explained);
        ScanNode date = assertInstanceOf(ScanNode.class, joins.get(0).build(), explained);
        assertTrue(fact.filter() != null && date.filter() != null, explained);
        assertTrue(fact.columns().size() < fact.table().columns().size(), explained);
    }

    private static void collectJoins(PlanNode node, List<HashJoinNode> out) {
        if (node instanceof HashJoinNode j) {
            out.add(j);
        }
        node.inputs().forEach(in -> collectJoins(in, out));
    }
}
