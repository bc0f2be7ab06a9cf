package dev.starling.planner.optimize;

import com.google.common.collect.ImmutableSet;
import dev.starling.planner.rel.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;

/**
 * {@code WHERE [NOT] EXISTS (SELECT ... FROM s WHERE p(outer, s) AND q(s))}, correlated only
 * through the subquery's top filter, becomes {@code outer SEMI (ANTI) JOIN (s WHERE q) ON p}.
 * Decorrelating it the general way instead joins the outer query with a grouped copy of the
 * subquery (one group per distinct correlation value) and, for a non-equality correlation such as
 * TPC-H Q21's {@code l2.l_suppkey <> l1.l_suppkey}, with a copy of the whole outer query as well.
 * The semi join needs neither, and may build on whichever side is smaller.
 */
final class ExistsToSemiJoinRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingExistsToSemiJoin",
            b -> b.operand(LogicalFilter.class).predicate(f -> RexUtil.SubQueryFinder.find(f.getCondition()) != null)
                    .anyInputs(),
            ExistsToSemiJoinRule::new).toRule();

    private ExistsToSemiJoinRule(RuleConfig config) {
        super(config);
    }

    /** A subquery conjunct as a join: its type, its right input and its condition over left ++ right fields. */
    private record SemiJoin(JoinRelType type, RelNode right, RexNode condition) { }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        if (filter.getVariablesSet().size() != 1) {
            return;
        }
        CorrelationId cor = filter.getVariablesSet().iterator().next();
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        for (int i = 0; i < conjuncts.size(); i++) {
            Optional<SemiJoin> semi = asSemiJoin(conjuncts.get(i), cor, filter.getInput().getRowType().getFieldCount(),
                    call.builder());
            if (semi.isEmpty()) {
                continue;
            }
            List<RexNode> plain = new ArrayList<>();
            List<RexNode> subqueries = new ArrayList<>();
            for (int j = 0; j < conjuncts.size(); j++) {
                if (j != i) {
                    (RexUtil.SubQueryFinder.find(conjuncts.get(j)) == null ? plain : subqueries).add(conjuncts.get(j));
                }
            }
            RelBuilder b = call.builder();
            // The outer query's own conditions go below the semi join, where they join and reduce its input.
            b.push(filter.getInput()).filter(plain);
            b.push(semi.get().right()).join(semi.get().type(), semi.get().condition());
            RelNode joined = b.build();
            // The semi join keeps the outer row type, so the other subqueries stay correlated to the same variable.
            call.transformTo(subqueries.isEmpty() ? joined : LogicalFilter.create(joined,
                    RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), subqueries),
                    ImmutableSet.of(cor)));
            return;
        }
    }

    private static Optional<SemiJoin> asSemiJoin(RexNode conjunct, CorrelationId cor, int leftCount, RelBuilder b) {
        JoinRelType type = JoinRelType.SEMI;
        RexNode e = conjunct;
        if (e.getKind() == SqlKind.NOT) {
            type = JoinRelType.ANTI;
            e = ((RexCall) e).getOperands().get(0);
        }
        if (e.getKind() != SqlKind.EXISTS || !(e instanceof RexSubQuery sub)) {
            return Optional.empty();
        }
        RelNode rel = sub.rel;
        while (rel instanceof Project p) {
            // EXISTS reads no column of the subquery, so its projections do not matter.
            rel = p.getInput();
        }
        if (!(rel instanceof Filter inner) || usesCorrelation(inner.getInput(), cor)) {
            return Optional.empty();
        }
        List<RexNode> correlated = new ArrayList<>();
        List<RexNode> local = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(inner.getCondition())) {
            if (RexUtil.SubQueryFinder.find(c) != null) {
                return Optional.empty();
            }
            (RexUtil.containsCorrelation(c) ? correlated : local).add(c);
        }
        OuterFieldsAsInputs rewrite = new OuterFieldsAsInputs(cor, leftCount);
        List<RexNode> condition = new ArrayList<>();
        for (RexNode c : correlated) {
            RexNode rewritten = c.accept(rewrite);
            if (rewrite.failed) {
                return Optional.empty();
            }
            condition.add(rewritten);
        }
        RelNode right = b.push(inner.getInput()).filter(local).build();
        return Optional.of(new SemiJoin(type, right, RexUtil.composeConjunction(b.getRexBuilder(), condition)));
    }

    /** Rewrites a subquery condition to a join condition: outer fields become left inputs, subquery fields right ones. */
    private static final class OuterFieldsAsInputs extends RexShuttle {
        private final CorrelationId cor;
        private final int leftCount;
        private boolean failed;

        OuterFieldsAsInputs(CorrelationId cor, int leftCount) {
            this.cor = cor;
            this.leftCount = leftCount;
        }

        @Override
        public RexNode visitInputRef(RexInputRef ref) {
            return new RexInputRef(ref.getIndex() + leftCount, ref.getType());
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(cor)
                    && access.getField().getIndex() < leftCount) {
                return new RexInputRef(access.getField().getIndex(), access.getType());
            }
            failed = true;
            return access;
        }

        @Override
        public RexNode visitCorrelVariable(RexCorrelVariable variable) {
            failed = true;
            return variable;
        }
    }

    /** Whether any operator in {@code rel}, or in a subquery inside it, refers to {@code cor}. */
    private static boolean usesCorrelation(RelNode rel, CorrelationId cor) {
        boolean[] found = {false};
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                found[0] |= variable.id.equals(cor);
                return variable;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                found[0] |= usesCorrelation(subQuery.rel, cor);
                return super.visitSubQuery(subQuery);
            }
        });
        return found[0] || rel.getInputs().stream().anyMatch(input -> usesCorrelation(input, cor));
    }
}
