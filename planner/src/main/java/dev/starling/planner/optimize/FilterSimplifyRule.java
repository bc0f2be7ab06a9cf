package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;

/**
 * Simplifies a filter's condition as Calcite's {@link RexSimplify} does (constants folded, a
 * comparison with NULL made NULL, a condition that can only be unknown made FALSE), keeping the
 * correlation variables the filter declares: {@code FILTER_REDUCE_EXPRESSIONS} rebuilds a filter
 * without them, which leaves the correlations of the subqueries it holds unresolved. It runs
 * before an aggregation's input is first asked for its predicates (to pull constants up), where a
 * comparison with NULL, such as a CASE that folds to NULL compared with a scalar subquery, makes
 * Calcite's metadata fail with an AssertionError.
 */
final class FilterSimplifyRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingFilterSimplify",
            b -> b.operand(LogicalFilter.class).anyInputs(), FilterSimplifyRule::new).toRule();

    private FilterSimplifyRule(RuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        RexSimplify simplify = new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
        // each conjunct alone: simplifying them together takes each as a predicate of the next
        // before it is simplified itself, and a comparison with NULL among them fails the same
        // assertion (a CASE whose BETWEEN is empty, compared with a literal, beside a subquery)
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            conjuncts.add(simplify.simplifyUnknownAsFalse(conjunct));
        }
        RexNode simplified = RexUtil.composeConjunction(rexBuilder, conjuncts);
        if (!simplified.equals(filter.getCondition())) {
            call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), simplified));
        }
    }
}
