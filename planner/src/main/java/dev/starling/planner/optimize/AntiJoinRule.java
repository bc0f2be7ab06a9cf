package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code L LEFT JOIN R ON c WHERE R.x IS NULL}, with x never NULL in R, keeps exactly the rows of L
 * without a match: an anti join. Decorrelated NOT EXISTS and NOT IN arrive in that shape; an anti
 * join neither materializes the non-matching rows' NULL padding nor filters afterwards.
 */
final class AntiJoinRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingAntiJoin",
            b -> b.operand(LogicalFilter.class).oneInput(b2 -> b2.operand(LogicalJoin.class)
                    .predicate(j -> j.getJoinType() == JoinRelType.LEFT).anyInputs()),
            AntiJoinRule::new).toRule();

    private AntiJoinRule(RuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        LogicalJoin join = call.rel(1);
        int leftCount = join.getLeft().getRowType().getFieldCount();
        List<RelDataTypeField> rightFields = join.getRight().getRowType().getFieldList();
        ImmutableBitSet leftOnly = ImmutableBitSet.range(leftCount);
        boolean anti = false;
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            if (!anti && isNullOfNonNullableRightField(conjunct, leftCount, rightFields)) {
                anti = true;
            } else if (leftOnly.contains(RelOptUtil.InputFinder.bits(conjunct))) {
                rest.add(conjunct);
            } else {
                return;
            }
        }
        if (!anti) {
            return;
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        RelBuilder b = call.builder();
        b.push(join.getLeft()).push(join.getRight()).join(JoinRelType.ANTI, join.getCondition());
        b.filter(rest);
        List<RexNode> projects = new ArrayList<>(b.fields());
        for (RelDataTypeField f : rightFields) {
            projects.add(rex.makeNullLiteral(rex.getTypeFactory().createTypeWithNullability(f.getType(), true)));
        }
        b.project(projects, filter.getRowType().getFieldNames(), true);
        b.convert(filter.getRowType(), false);
        call.transformTo(b.build());
    }

    private static boolean isNullOfNonNullableRightField(RexNode conjunct, int leftCount, List<RelDataTypeField> right) {
        return conjunct.getKind() == SqlKind.IS_NULL
                && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef ref
                && ref.getIndex() >= leftCount
                && !right.get(ref.getIndex() - leftCount).getType().isNullable();
    }
}
