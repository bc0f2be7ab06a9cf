package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Join orders and build sides chosen from the column statistics of generated TPC-H and SSB data:
 * the fact table is always probed, never built, and a star join stays one pipeline over the fact scan.
 */
class JoinOrderPlanTest {
    private static Catalog tpch;
    private static Catalog ssb;

    @BeforeAll
    static void load() {
        tpch = Catalog.inMemory();
        TpchGenerator.generate(tpch, 0.01, "");
        ssb = Catalog.inMemory();
        SsbGenerator.generate(ssb, 0.01, "");
    }

    /** Queries joining lineitem with its dimensions, where lineitem as a build side would hash millions of rows. */
    @ParameterizedTest(name = "q{0}")
    @ValueSource(ints = {3, 5, 7, 8, 9, 10, 12, 14, 18, 19})
    void lineitemIsNeverABuildSide(int n) {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(n)).plan();
        String explained = PlanExplainer.explain(plan);
        for (HashJoinNode j : joins(plan)) {
            assertFalse(scannedTable(j.build()).equals("lineitem"), explained);
        }
    }

    /**
     * Q5 also joins supplier to customer by nation: joining those two dimensions before lineitem
     * would multiply them; lineitem must probe everything.
     */
    @Test
    void q5IsProbedByLineitem() {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(5)).plan();
        String explained = PlanExplainer.explain(plan);
        assertEquals("lineitem", scannedTable(probeLeaf(plan)), explained);
    }

    /**
     * Q3's orders and customer are filtered dimensions of a chain lineitem → orders → customer: both
     * are looked up in arrays from the lineitem pipeline rather than joined to each other first.
     */
    @Test
    void q3FollowsTheForeignKeyChainWithDenseJoins() {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(3)).plan();
        String explained = PlanExplainer.explain(plan);
        List<HashJoinNode> joins = joins(plan);
        assertEquals(2, joins.size(), explained);
        assertTrue(joins.stream().allMatch(HashJoinNode::dense), explained);
        assertEquals("lineitem", scannedTable(probeLeaf(plan)), explained);
    }

    /**
     * Q4's EXISTS is a semi join, not a join with lineitem grouped by order: the filtered orders are
     * the smaller side, marked by lineitem's dense order codes.
     */
    @Test
    void q4ExistsIsADenseSemiJoinMarkingOrders() {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(4)).plan();
        String explained = PlanExplainer.explain(plan);
        HashJoinNode semi = joins(plan).stream().filter(j -> j.kind() == JoinKind.SEMI).findFirst().orElseThrow();
        assertTrue(semi.markProbe() && semi.dense(), explained);
        assertEquals("orders", scannedTable(semi.probe()), explained);
        assertEquals("lineitem", scannedTable(semi.build()), explained);
        assertFalse(explained.lines().anyMatch(l -> l.strip().startsWith("Aggregate group by") && l.contains("] []")),
                explained);
    }

    /** Q21's EXISTS and NOT EXISTS, correlated by an inequality too, are a semi and an anti join with residuals. */
    @Test
    void q21IsOneJoinPipelineWithASemiAndAnAntiJoin() {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(21)).plan();
        String explained = PlanExplainer.explain(plan);
        List<HashJoinNode> joins = joins(plan);
        assertTrue(joins.stream().anyMatch(j -> j.kind() == JoinKind.SEMI && j.residual() != null), explained);
        assertTrue(joins.stream().anyMatch(j -> j.kind() == JoinKind.ANTI && j.residual() != null), explained);
        assertEquals(3, explained.lines().filter(l -> l.contains("Scan lineitem")).count(), explained);
    }

    /**
     * A decorrelated scalar subquery aggregates its whole table per key (Q17: lineitem per part, Q2:
     * partsupp per part); the aggregate's input is first reduced to the keys of the filtered parts.
     */
    @ParameterizedTest(name = "q{0}")
    @ValueSource(ints = {2, 17})
    void groupedSubqueryInputIsReducedByTheFilteredKeys(int n) {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(n)).plan();
        String explained = PlanExplainer.explain(plan);
        AggregateNode grouped = find(plan, AggregateNode.class, a -> a.groupKeys().length > 0);
        assertTrue(contains(grouped.input(), JoinKind.SEMI), explained);
    }

    /**
     * Q20's correlated sum becomes a year of lineitem summed per part and supplier (below the join
     * it fed, see EagerAggregationPlanTest), reduced to the parts named 'forest%' first.
     */
    @Test
    void q20SumIsOverLineitemReducedByTheFilteredParts() {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(20)).plan();
        String explained = PlanExplainer.explain(plan);
        AggregateNode sum = find(plan, AggregateNode.class, a -> a.groupKeys().length == 2);
        assertTrue(sum != null && contains(sum.input(), JoinKind.SEMI), explained);
    }

    /** Q7's nation pair condition, an OR over both nations, filters each nation scan by the names it allows. */
    @Test
    void q7NationScansAreFilteredByTheImpliedNames() {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(7)).plan();
        String explained = PlanExplainer.explain(plan);
        List<String> nationScans = explained.lines().filter(l -> l.contains("Scan nation")).toList();
        assertEquals(2, nationScans.size(), explained);
        assertTrue(nationScans.stream().allMatch(l -> l.contains("filter: n_name IN ('FRANCE', 'GERMANY')")), explained);
    }

    private static boolean contains(PlanNode node, JoinKind kind) {
        return joins(node).stream().anyMatch(j -> j.kind() == kind);
    }

    private static <T extends PlanNode> T find(PlanNode node, Class<T> type, java.util.function.Predicate<T> test) {
        if (type.isInstance(node) && test.test(type.cast(node))) {
            return type.cast(node);
        }
        for (PlanNode in : node.inputs()) {
            T found = find(in, type, test);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    static List<String> ssbQueries() {
        return SsbQueries.names();
    }

    @ParameterizedTest(name = "Q{0}")
    @MethodSource("ssbQueries")
    void ssbIsOneLineorderPipelineProbingDenseDimensions(String name) {
        PlanNode plan = new SqlPlanner(ssb).plan(SsbQueries.query(name)).plan();
        String explained = PlanExplainer.explain(plan);
        List<HashJoinNode> joins = joins(plan);
        assertFalse(joins.isEmpty(), explained);
        for (HashJoinNode j : joins) {
            assertTrue(j.dense(), explained);
            assertFalse(scannedTable(j.build()).isEmpty(), explained);
        }
        ScanNode fact = assertInstanceOf(ScanNode.class, probeLeaf(joins.get(0)), explained);
        assertEquals("lineorder", fact.table().name(), explained);
        assertReadsEachColumnOnce(fact, explained);
    }

    /** A dense foreign key that is only joined on is read as its code alone, not also as its value. */
    @ParameterizedTest(name = "q{0}")
    @ValueSource(ints = {3, 12})
    void tpchFactScanReadsJoinedForeignKeysOnce(int n) {
        PlanNode plan = new SqlPlanner(tpch).plan(TpchQueries.query(n)).plan();
        String explained = PlanExplainer.explain(plan);
        ScanNode fact = assertInstanceOf(ScanNode.class, probeLeaf(plan), explained);
        assertEquals("lineitem", fact.table().name(), explained);
        assertTrue(fact.columns().stream().anyMatch(c -> c.mode() == ScanNode.ScanColumn.Mode.CODE), explained);
        assertReadsEachColumnOnce(fact, explained);
    }

    private static void assertReadsEachColumnOnce(ScanNode scan, String explained) {
        List<Integer> read = scan.columns().stream().filter(c -> c.mode() != ScanNode.ScanColumn.Mode.ROW_ID)
                .map(ScanNode.ScanColumn::column).toList();
        assertEquals(read.stream().distinct().count(), read.size(), explained);
    }

    /** Where the rows of {@code node}'s pipeline come from: down its first input, and a join's probe side. */
    private static PlanNode probeLeaf(PlanNode node) {
        PlanNode n = node;
        while (!n.inputs().isEmpty()) {
            n = n instanceof HashJoinNode j ? j.probe() : n.inputs().get(0);
        }
        return n;
    }

    /** The table a plain scan (maybe filtered or projected) reads, or "" for anything else. */
    private static String scannedTable(PlanNode node) {
        return switch (node) {
            case ScanNode s -> s.table().name();
            case FilterNode f -> scannedTable(f.inputs().get(0));
            case ProjectNode p -> scannedTable(p.inputs().get(0));
            default -> "";
        };
    }

    private static List<HashJoinNode> joins(PlanNode plan) {
        return PlanNodes.all(plan, HashJoinNode.class);
    }
}
