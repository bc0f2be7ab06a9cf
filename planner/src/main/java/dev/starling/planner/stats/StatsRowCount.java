package dev.starling.planner.stats;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.metadata.RelMdRowCount;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Join sizes from the distinct counts of the equi-join keys: each key value of the side with fewer
 * distinct values is assumed to occur on the other side (containment), so an inner join has
 * {@code |L| * |R| / max(ndv(L keys), ndv(R keys))} rows: a foreign key joined with its primary key
 * keeps the foreign key side's rows, as filtered by the primary key side. An aggregation has no
 * more groups than input rows.
 */
public class StatsRowCount extends RelMdRowCount {
    /** A semi or anti join never estimated to keep or drop everything: its condition may hold other terms. */
    private static final double MIN_KEPT = 0.1;

    @Override
    public @Nullable Double getRowCount(Join join, RelMetadataQuery mq) {
        Double left = mq.getRowCount(join.getLeft());
        Double right = mq.getRowCount(join.getRight());
        if (left == null || right == null) {
            return super.getRowCount(join, mq);
        }
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        List<RexNode> rest = new ArrayList<>();
        RelOptUtil.splitJoinCondition(join.getLeft(), join.getRight(), join.getCondition(), leftKeys, rightKeys,
                new ArrayList<>(), rest);
        double restSelectivity = rest.isEmpty() ? 1
                : RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(), rest));
        // Per key: the share of one side's key values found on the other side, assuming containment.
        double leftMatched = restSelectivity;
        double rightMatched = restSelectivity;
        double innerDivisor = 1;
        for (int i = 0; i < leftKeys.size(); i++) {
            double l = distinct(mq, join.getLeft(), leftKeys.get(i), left);
            double r = distinct(mq, join.getRight(), rightKeys.get(i), right);
            leftMatched *= Math.min(1, r / l);
            rightMatched *= Math.min(1, l / r);
            innerDivisor *= Math.max(l, r);
        }
        // With unique keys on one side, each row of the other side matches at most once; several keys
        // are then usually correlated (a composite key), which the product of their distinct counts overstates.
        double inner;
        if (!leftKeys.isEmpty() && Boolean.TRUE.equals(mq.areColumnsUnique(join.getRight(), ImmutableBitSet.of(rightKeys)))) {
            inner = left * leftMatched;
        } else if (!leftKeys.isEmpty() && Boolean.TRUE.equals(mq.areColumnsUnique(join.getLeft(), ImmutableBitSet.of(leftKeys)))) {
            inner = right * rightMatched;
        } else {
            inner = left * right / innerDivisor * restSelectivity;
        }
        double rows = switch (join.getJoinType()) {
            case INNER -> inner;
            case LEFT -> Math.max(inner, left);
            case RIGHT -> Math.max(inner, right);
            case FULL -> Math.max(inner, Math.max(left, right));
            case SEMI -> left * Math.max(MIN_KEPT, leftMatched);
            case ANTI -> left * Math.max(MIN_KEPT, 1 - leftMatched);
            default -> inner;
        };
        return Math.max(1, rows);
    }

    /**
     * An aggregation has at most a group per input row. Calcite counts the groups as the distinct
     * keys of its input, which over a join it estimates apart from the join's rows and can put
     * above them.
     */
    @Override
    public @Nullable Double getRowCount(Aggregate rel, RelMetadataQuery mq) {
        Double groups = super.getRowCount(rel, mq);
        Double input = mq.getRowCount(rel.getInput());
        return groups == null || input == null ? groups : Math.min(groups, Math.max(1, input));
    }

    /** The distinct values of field {@code key} in {@code rel}, between 1 and its row count. */
    private static double distinct(RelMetadataQuery mq, RelNode rel, int key, double rows) {
        Double d = mq.getDistinctRowCount(rel, ImmutableBitSet.of(key), null);
        return d == null ? rows : Math.max(1, Math.min(d, rows));
    }
}
