package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalFilter;
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
        RexNode simplified = new RexSimplify(filter.getCluster().getRexBuilder(), RelOptPredicateList.EMPTY,
                RexUtil.EXECUTOR).simplifyUnknownAsFalse(filter.getCondition());
        if (!simplified.equals(filter.getCondition())) {
            call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), simplified));
        }
    }
}
