package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

/**
 * An aggregation grouped by a unique key of a LEFT join's preserved side, whose aggregates read only
 * the other side, has one group per preserved row, made of that row's matches: it equals the join
 * of the preserved side with the other side aggregated by its join keys (eager aggregation, Yan and
 * Larson, <i>Eager Aggregation and Lazy Aggregation</i>, VLDB 1995). The other side shrinks to one
 * row per key before the join, and its aggregation is a pipeline over one input, which the GPU can
 * take whole: TPC-H Q13 counts orders by customer (15M rows into 1.5M groups at SF10) instead of
 * joining 1.5M customers with 15M orders first; Q20 sums lineitem by part and supplier.
 * <p>
 * A preserved row without a match meets one row of NULLs: COUNT(*) is 1 for it (0 with a FILTER,
 * which NULLs fail) and COUNT(x) and SUM0 0, which the join would leave NULL, so those are
 * COALESCEd; SUM, MIN, MAX and AVG of NULLs are NULL either way.
 */
final class AggregateBelowLeftJoinRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingAggregateBelowLeftJoin",
            b -> b.operand(LogicalAggregate.class)
                    .predicate(a -> a.getGroupType() == Aggregate.Group.SIMPLE && !a.getAggCallList().isEmpty())
                    .oneInput(b2 -> b2.operand(LogicalJoin.class)
                            .predicate(j -> j.getJoinType() == JoinRelType.LEFT).anyInputs()),
            AggregateBelowLeftJoinRule::new).toRule();

    private AggregateBelowLeftJoinRule(RuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        LogicalJoin join = call.rel(1);
        int leftCount = join.getLeft().getRowType().getFieldCount();
        ImmutableBitSet groups = aggregate.getGroupSet();
        JoinInfo keys = join.analyzeCondition();
        RelMetadataQuery mq = call.getMetadataQuery();
        if (!keys.isEqui() || keys.leftKeys.isEmpty() || groups.isEmpty() || groups.length() > leftCount
                || !Boolean.TRUE.equals(mq.areColumnsUnique(join.getLeft(), groups))
                || !aggregate.getAggCallList().stream().allMatch(c -> pushable(c, leftCount))) {
            return;
        }
        RelBuilder b = call.builder();
        int rightCount = join.getRight().getRowType().getFieldCount();
        Mappings.TargetMapping toRight = Mappings.createShiftMapping(leftCount + rightCount, 0, leftCount, rightCount);
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            calls.add(c.transform(toRight));
        }
        b.push(join.getLeft());
        b.push(join.getRight()).aggregate(b.groupKey(ImmutableBitSet.of(keys.rightKeys)), toCalls(b, calls));
        List<RexNode> on = new ArrayList<>();
        for (int k = 0; k < keys.leftKeys.size(); k++) {
            on.add(b.equals(b.field(2, 0, keys.leftKeys.get(k)),
                    b.field(2, 1, ImmutableBitSet.of(keys.rightKeys).indexOf(keys.rightKeys.get(k)))));
        }
        b.join(JoinRelType.LEFT, on);
        List<RexNode> out = new ArrayList<>();
        for (int g : groups) {
            out.add(b.field(g));
        }
        int firstCall = leftCount + keys.rightKeys.size();
        for (int i = 0; i < calls.size(); i++) {
            RexNode value = b.field(firstCall + i);
            Integer unmatched = unmatchedValue(calls.get(i));
            out.add(unmatched == null ? value : b.call(SqlStdOperatorTable.COALESCE, value, b.literal(unmatched)));
        }
        b.project(out);
        b.convert(aggregate.getRowType(), false);
        call.transformTo(b.build());
    }

    /** Aggregates of the non-preserved side's columns only, each of which the join keeps or NULLs alike. */
    private static boolean pushable(AggregateCall c, int leftCount) {
        boolean kind = switch (c.getAggregation().getKind()) {
            case COUNT, SUM, SUM0, MIN, MAX, AVG -> true;
            default -> false;
        };
        return kind && c.getArgList().stream().allMatch(a -> a >= leftCount)
                && (c.filterArg < 0 || c.filterArg >= leftCount) && c.collation.getFieldCollations().isEmpty();
    }

    /** What the aggregate is for a preserved row without a match, where that is not NULL. */
    private static Integer unmatchedValue(AggregateCall c) {
        SqlKind kind = c.getAggregation().getKind();
        if (kind == SqlKind.COUNT) {
            return c.getArgList().isEmpty() && c.filterArg < 0 ? 1 : 0;
        }
        return kind == SqlKind.SUM0 ? 0 : null;
    }

    private static List<RelBuilder.AggCall> toCalls(RelBuilder b, List<AggregateCall> calls) {
        List<RelBuilder.AggCall> out = new ArrayList<>();
        for (AggregateCall c : calls) {
            out.add(b.aggregateCall(c));
        }
        return out;
    }
}
