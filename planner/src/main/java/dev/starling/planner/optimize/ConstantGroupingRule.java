package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

/**
 * A grouping by constants only ({@code SELECT DISTINCT 1 ...}, {@code GROUP BY 'x'}) has one
 * group when its input has a row and none when it has none: a global aggregate with a count, kept
 * where the count is positive, and the constants put back by a projection.
 *
 * <p>Why before decorrelation: Calcite's {@code RelDecorrelator} drops constant group keys from
 * every aggregate it rewrites, taking them for the {@code GROUP BY true} of its own EXISTS plans,
 * so an aggregate grouped by constants alone became a global one and answered one row over an
 * empty input ({@code SELECT DISTINCT 1 ... WHERE x < (correlated subquery)} gave a row where no
 * row qualifies). Aggregates that use an outer query's correlation variable are left alone: those
 * are the subquery plans the decorrelator means.
 */
final class ConstantGroupingRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingConstantGrouping",
            b -> b.operand(LogicalAggregate.class).predicate(a -> a.getGroupType() == Aggregate.Group.SIMPLE
                            && !a.getGroupSet().isEmpty())
                    .oneInput(b2 -> b2.operand(LogicalProject.class).anyInputs()),
            ConstantGroupingRule::new).toRule();

    private ConstantGroupingRule(RuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        LogicalProject project = call.rel(1);
        List<RexNode> keys = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            if (!(project.getProjects().get(key) instanceof RexLiteral literal)) {
                return;
            }
            keys.add(literal);
        }
        if (!RelOptUtil.getVariablesUsed(aggregate).isEmpty()) {
            return;
        }
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        RelBuilder b = call.builder();
        b.push(project);
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            calls.add(b.aggregateCall(c.adaptTo(project, c.getArgList(), c.filterArg, keys.size(), 0)));
        }
        calls.add(b.countStar("rows"));
        b.aggregate(b.groupKey(), calls);
        int rows = calls.size() - 1;
        b.filter(b.call(SqlStdOperatorTable.GREATER_THAN, b.field(rows), b.literal(0)));
        List<RexNode> out = new ArrayList<>(keys);
        for (int c = 0; c < rows; c++) {
            out.add(b.field(c));
        }
        List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
        for (int i = 0; i < out.size(); i++) {
            out.set(i, rex.makeCast(fields.get(i).getType(), out.get(i), true, false));
        }
        b.project(out, aggregate.getRowType().getFieldNames(), true);
        call.transformTo(b.build());
    }
}
