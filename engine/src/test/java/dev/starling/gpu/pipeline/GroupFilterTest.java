package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.DataType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which conjuncts of a HAVING condition the GPU applies to the groups, and the constants it
 * compares with: at the states' scale, rounded toward the side that keeps the same groups.
 */
class GroupFilterTest {
    private static Starling db;

    @BeforeAll
    static void data() {
        db = Starling.inMemory();
        db.update(db.prepare("CREATE TABLE t (k INTEGER, amt DECIMAL(12,2), n INTEGER, x DOUBLE)"));
        db.update(db.prepare("INSERT INTO t VALUES (1, 2.50, 3, 1.5), (2, NULL, NULL, NULL)"));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void aSumComparedWithAConstantOfMoreDigitsRoundsTowardTheSameGroups() {
        // the literals as the executor would meet them (SQL's own are brought to the sum's type first)
        assertEquals(List.of(term(GroupFilter.Kind.SUM, GroupFilter.Comparison.GT, 150000)), sumTerms(Call.Op.GT, 1500005));
        assertEquals(List.of(term(GroupFilter.Kind.SUM, GroupFilter.Comparison.GE, 150001)), sumTerms(Call.Op.GE, 1500005));
        assertEquals(List.of(term(GroupFilter.Kind.SUM, GroupFilter.Comparison.LT, -150000)), sumTerms(Call.Op.LT, -1500005));
        assertEquals(List.of(term(GroupFilter.Kind.SUM, GroupFilter.Comparison.LE, -150001)), sumTerms(Call.Op.LE, -1500005));
        assertEquals(List.of(term(GroupFilter.Kind.SUM, GroupFilter.Comparison.EQ, 150000)), sumTerms(Call.Op.EQ, 1500000));
        assertEquals(List.of(), sumTerms(Call.Op.EQ, 1500005), "no sum equals it: left to the CPU, which keeps none");
    }

    /** The terms of {@code SUM(amt) op literal}, the literal a DECIMAL(7,3) of {@code unscaled}. */
    private static List<GroupFilter.Term> sumTerms(Call.Op op, long unscaled) {
        AggregateNode sum = PlanNodes.all(new SqlPlanner(db.catalog()).plan("SELECT k, SUM(amt) FROM t GROUP BY k").plan(),
                AggregateNode.class).get(0);
        Expr having = new Call(op, List.of(new ColumnRef(1, sum.output().get(1).type(), true),
                new Literal(unscaled, DataType.decimal(7, 3))), DataType.BOOLEAN, true);
        try {
            return slotless(GroupFilter.of(StarPipelineCompiler.compile(sum, db.catalog()), having));
        } catch (Unsupported e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void countsAndExtremesEitherWayRoundWhileAveragesAndDoublesStayWithTheCpu() {
        List<GroupFilter.Term> terms = terms("SELECT k FROM t GROUP BY k "
                + "HAVING 3 < COUNT(*) AND MAX(n) <> 7 AND AVG(amt) > 1 AND SUM(x) > 2 AND MIN(amt) <= 2");
        assertEquals(List.of(GroupFilter.Kind.COUNT, GroupFilter.Kind.EXTREME, GroupFilter.Kind.EXTREME),
                terms.stream().map(GroupFilter.Term::kind).toList());
        assertEquals(List.of(GroupFilter.Comparison.GT, GroupFilter.Comparison.NE, GroupFilter.Comparison.LE),
                terms.stream().map(GroupFilter.Term::comparison).toList());
        assertEquals(List.of(3L, 7L, 200L), terms.stream().map(GroupFilter.Term::constant).toList());
    }

    @Test
    void noTermsWithoutGroupKeysOrOutsideAConjunction() {
        assertEquals(Optional.empty(), filter("SELECT COUNT(*) FROM t HAVING COUNT(*) > 1"));
        assertEquals(Optional.empty(), filter("SELECT k FROM t GROUP BY k HAVING COUNT(*) > 1 OR SUM(n) < 0"));
        Optional<GroupFilter> f = filter("SELECT k, SUM(amt) AS s FROM t GROUP BY k HAVING SUM(amt) > 300.00");
        assertTrue(f.isPresent() && f.get().text().contains("> 300.00"), f.toString());
    }

    @Test
    void aComparisonWithAScalarSubqueryBindsToItsValueThroughAWideningCast() {
        // planned as Q11's HAVING is: an inner join of the groups with the subquery's one row
        var plan = new SqlPlanner(db.catalog()).plan("SELECT k, SUM(amt) AS s FROM t GROUP BY k "
                + "HAVING SUM(amt) > (SELECT SUM(amt) * 0.0001 FROM t)").plan();
        HashJoinNode join = PlanNodes.all(plan, HashJoinNode.class).stream()
                .filter(j -> j.probe() instanceof AggregateNode).findFirst().orElseThrow();
        GroupFilter filter;
        try {
            filter = GroupFilter.of(StarPipelineCompiler.compile((AggregateNode) join.probe(), db.catalog()),
                    join.residual(), join.build()).orElseThrow();
        } catch (Unsupported e) {
            throw new AssertionError(e);
        }
        assertEquals(List.of(), filter.terms());
        assertSame(join.build(), filter.scalar());
        assertTrue(filter.text().startsWith("CAST(s AS DECIMAL("), filter.text());
        int scalarScale = join.build().output().get(0).type().scale();
        assertEquals(6, scalarScale, "2 digits of SUM(amt) and 4 of 0.0001");

        // 1.234567 at scale 6: the groups' sums (scale 2) pass above 1.23
        GroupFilter.Term bound = filter.bind(scalarRow(1_234_567L, scalarScale)).terms().get(0);
        assertEquals(GroupFilter.Comparison.GT, bound.comparison());
        assertEquals(123, bound.constant());
        assertEquals(Long.MAX_VALUE / 10_000, bound.passBeyond(), "a sum the CAST to scale 6 overflows comes back");
        assertTrue(filter.bind(scalarRow(null, scalarScale)).terms().isEmpty(), "a NULL scalar leaves it to the CPU");
        assertTrue(filter.bind(new Batch(new Vector[] {Vector.ofLongs(DataType.decimal(18, scalarScale), new long[0], null)},
                0)).terms().isEmpty(), "no scalar row: left to the CPU");
    }

    private static Batch scalarRow(Long unscaled, int scale) {
        return new Batch(new Vector[] {Vector.ofLongs(DataType.decimal(18, scale),
                new long[] {unscaled == null ? 0 : unscaled}, unscaled == null ? new boolean[] {true} : null)}, 1);
    }

    private static GroupFilter.Term term(GroupFilter.Kind kind, GroupFilter.Comparison comparison, long constant) {
        return new GroupFilter.Term(kind, comparison, 0, 0, constant);
    }

    /** The terms of the query's HAVING, their slots left out (set to 0). */
    private static List<GroupFilter.Term> terms(String sql) {
        return slotless(filter(sql));
    }

    private static List<GroupFilter.Term> slotless(Optional<GroupFilter> filter) {
        return filter.map(GroupFilter::terms).orElse(List.of()).stream()
                .map(t -> new GroupFilter.Term(t.kind(), t.comparison(), 0, 0, t.constant()))
                .toList();
    }

    private static Optional<GroupFilter> filter(String sql) {
        var plan = new SqlPlanner(db.catalog()).plan(sql).plan();
        FilterNode having = PlanNodes.all(plan, FilterNode.class).stream()
                .filter(f -> f.input() instanceof AggregateNode).findFirst().orElseThrow();
        try {
            return GroupFilter.of(StarPipelineCompiler.compile((AggregateNode) having.input(), db.catalog()), having.condition());
        } catch (Unsupported e) {
            throw new AssertionError(e);
        }
    }
}
