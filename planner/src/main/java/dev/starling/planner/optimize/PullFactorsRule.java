package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Pulls the conjuncts common to every branch of a disjunction out of it: {@code (a AND b) OR
 * (a AND c)} becomes {@code a AND (b OR c)}, so that a join key repeated in each branch (TPC-H Q19)
 * becomes an equi-join condition instead of leaving a Cartesian product.
 */
final class PullFactorsRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingPullFactors",
            b -> b.operand(LogicalFilter.class).anyInputs(), PullFactorsRule::new).toRule();

    private PullFactorsRule(RuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        RexNode pulled = RexUtil.pullFactors(filter.getCluster().getRexBuilder(), filter.getCondition());
        if (!pulled.equals(filter.getCondition())) {
            call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), pulled));
        }
    }
}
