package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.tools.RelBuilder;

/**
 * Semi-join reduction of a join input that would be built or aggregated whole although the join
 * keeps few of its rows: the input is first reduced to the rows whose key occurs in a small input S
 * that the other side's key values all come from. Two shapes:
 * <ul>
 * <li>{@code X JOIN (SELECT k, agg(..) FROM I GROUP BY k, ..) ON X.x = k}: only the groups whose
 * key occurs in X survive, so I becomes {@code I SEMI JOIN S}; every row of a group has the group's
 * key, so a surviving group keeps all its rows and its aggregates. Decorrelated scalar subqueries
 * take this shape, I being the subquery's whole table: TPC-H Q17 averages lineitem quantities per
 * part, Q2 takes partsupp's minimum cost per part, for every part, where the outer query wants a
 * few hundred.
 * <li>{@code X LEFT JOIN R ON X.x = R.k}: rows of R without a partner in X contribute nothing, so R
 * becomes {@code R SEMI JOIN S} (TPC-H Q20: a year of lineitem, joined to the partsupp rows of a
 * few parts).
 * </ul>
 * S is found by following X's key down through X's operators, across the equalities of its joins
 * too, to the input with the fewest estimated rows; a whole table would remove nothing.
 */
final class KeyReductionRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingKeyReduction",
            b -> b.operand(LogicalJoin.class).predicate(j -> j.getJoinType() == JoinRelType.INNER
                    || j.getJoinType() == JoinRelType.LEFT).anyInputs(),
            KeyReductionRule::new).toRule();

    /** The reduction pays when the reducing input has at most this share of the rows it reduces. */
    private static final double MAX_REDUCER_SHARE = 0.25;

    private KeyReductionRule(RuleConfig config) {
        super(config);
    }

    /** A field of some input inside X whose values include every value of X's join key. */
    private record KeySource(RelNode rel, int field, double rows) { }

    /** A join's equality keys, left and right, that never match NULL. */
    private record EquiKeys(List<Integer> left, List<Integer> right) {
        static EquiKeys of(Join join) {
            List<Integer> left = new ArrayList<>();
            List<Integer> right = new ArrayList<>();
            List<Boolean> filterNulls = new ArrayList<>();
            RelOptUtil.splitJoinCondition(join.getLeft(), join.getRight(), join.getCondition(), left, right,
                    filterNulls, new ArrayList<>());
            List<Integer> l = new ArrayList<>();
            List<Integer> r = new ArrayList<>();
            for (int i = 0; i < left.size(); i++) {
                if (filterNulls.get(i)) {
                    l.add(left.get(i));
                    r.add(right.get(i));
                }
            }
            return new EquiKeys(l, r);
        }
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        EquiKeys keys = EquiKeys.of(join);
        RelMetadataQuery mq = call.getMetadataQuery();
        // A LEFT join keeps every left row: only its right side may be reduced.
        for (int side = join.getJoinType() == JoinRelType.LEFT ? 1 : 0; side < 2; side++) {
            RelNode reducible = strip(side == 0 ? join.getLeft() : join.getRight());
            Aggregate agg = reducible instanceof LogicalAggregate a && a.getGroupType() == Aggregate.Group.SIMPLE ? a : null;
            if (agg == null && join.getJoinType() != JoinRelType.LEFT) {
                continue;
            }
            RelNode target = agg != null ? agg.getInput() : reducible;
            if (isReduced(target)) {
                continue;
            }
            List<Integer> ownKeys = side == 0 ? keys.left() : keys.right();
            List<Integer> otherKeys = side == 0 ? keys.right() : keys.left();
            double rows = mq.getRowCount(reducible);
            for (int k = 0; k < ownKeys.size(); k++) {
                if (agg != null && ownKeys.get(k) >= agg.getGroupCount()) {
                    continue;
                }
                KeySource source = smallestSource(side == 0 ? join.getRight() : join.getLeft(), otherKeys.get(k),
                        mq, null, new HashSet<>());
                if (source.rows() > MAX_REDUCER_SHARE * rows || source.rel() instanceof TableScan) {
                    continue;
                }
                int targetKey = agg != null ? agg.getGroupSet().asList().get(ownKeys.get(k)) : ownKeys.get(k);
                RelBuilder b = call.builder();
                b.push(target).push(source.rel());
                b.semiJoin(b.equals(b.field(2, 0, targetKey), b.field(2, 1, source.field())));
                RelNode reduced = agg != null ? agg.copy(agg.getTraitSet(), List.of(b.build())) : b.build();
                call.transformTo(join.copy(join.getTraitSet(),
                        side == 0 ? List.of(reduced, join.getRight()) : List.of(join.getLeft(), reduced)));
                return;
            }
        }
    }

    /**
     * Follows field {@code field} of {@code node} down through projections of plain columns,
     * filters, and inner and semi joins (into the side it comes from, and across an equality key
     * into the other side, whose matching values it must equal), all of which only ever pass values
     * on, and returns the input along the way with the fewest estimated rows.
     */
    private static KeySource smallestSource(RelNode node, int field, RelMetadataQuery mq, KeySource best,
                                            Set<String> seen) {
        RelNode rel = strip(node);
        if (!seen.add(rel.getId() + ":" + field)) {
            return best;
        }
        KeySource here = new KeySource(rel, field, mq.getRowCount(rel));
        KeySource smallest = best == null || here.rows() < best.rows() ? here : best;
        return switch (rel) {
            case Filter f -> smallestSource(f.getInput(), field, mq, smallest, seen);
            case Project p when p.getProjects().get(field) instanceof RexInputRef ref ->
                    smallestSource(p.getInput(), ref.getIndex(), mq, smallest, seen);
            case Join j when j.getJoinType() == JoinRelType.INNER || j.getJoinType() == JoinRelType.SEMI -> {
                int leftCount = j.getLeft().getRowType().getFieldCount();
                boolean fromLeft = field < leftCount;
                int own = fromLeft ? field : field - leftCount;
                KeySource found = smallestSource(fromLeft ? j.getLeft() : j.getRight(), own, mq, smallest, seen);
                EquiKeys keys = EquiKeys.of(j);
                List<Integer> ownKeys = fromLeft ? keys.left() : keys.right();
                List<Integer> otherKeys = fromLeft ? keys.right() : keys.left();
                for (int k = 0; k < ownKeys.size(); k++) {
                    if (ownKeys.get(k) == own) {
                        found = smallestSource(fromLeft ? j.getRight() : j.getLeft(), otherKeys.get(k), mq, found, seen);
                    }
                }
                yield found;
            }
            default -> smallest;
        };
    }

    /** Whether {@code rel} is, under projections and filters, a semi join: already reduced. */
    private static boolean isReduced(RelNode rel) {
        return switch (strip(rel)) {
            case Project p -> isReduced(p.getInput());
            case Filter f -> isReduced(f.getInput());
            case Join j -> j.getJoinType() == JoinRelType.SEMI;
            default -> false;
        };
    }

    private static RelNode strip(RelNode rel) {
        return rel instanceof HepRelVertex v ? v.getCurrentRel() : rel;
    }
}
