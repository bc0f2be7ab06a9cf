package dev.starling.planner.optimize;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Adds to a filter the conditions that a disjunction of conjunctions implies on fewer columns:
 * {@code (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 = 'GERMANY' AND n2 = 'FRANCE')} implies
 * {@code n1 IN ('FRANCE', 'GERMANY')} and the same of n2, which filter a join input early where
 * the disjunction itself can only be evaluated after the join (TPC-H Q7, and Q19's per-branch part
 * and quantity ranges). Every row the disjunction passes satisfies its branch's conjuncts, so the
 * added conditions never drop a row. Applied once over the tree, so it cannot feed on its own output.
 */
final class ImpliedDisjuncts {
    private ImpliedDisjuncts() {
    }

    static RelNode apply(RelNode root) {
        return root.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalFilter filter) {
                LogicalFilter visited = (LogicalFilter) super.visit(filter);
                RexNode widened = widen(filter.getCluster().getRexBuilder(), visited.getCondition());
                return widened == visited.getCondition() ? visited
                        : visited.copy(visited.getTraitSet(), visited.getInput(), widened);
            }
        });
    }

    /** {@code condition} with the implied conditions of its disjunctive conjuncts added, or itself when none. */
    static RexNode widen(RexBuilder rex, RexNode condition) {
        List<RexNode> conjuncts = RelOptUtil.conjunctions(condition);
        Set<RexNode> added = new LinkedHashSet<>();
        for (RexNode c : conjuncts) {
            if (c.getKind() != SqlKind.OR || !isPlain(c)) {
                continue;
            }
            List<List<RexNode>> branches = RelOptUtil.disjunctions(c).stream().map(RelOptUtil::conjunctions).toList();
            if (branches.isEmpty()) {
                // an OR Calcite knows to be always false has no disjunctions: it implies nothing more
                continue;
            }
            ImmutableBitSet all = RelOptUtil.InputFinder.bits(c);
            for (RexNode first : branches.get(0)) {
                ImmutableBitSet columns = RelOptUtil.InputFinder.bits(first);
                if (columns.isEmpty() || columns.equals(all)) {
                    continue;
                }
                RexNode implied = impliedOn(rex, branches, columns);
                if (implied != null && !conjuncts.contains(implied)) {
                    added.add(implied);
                }
            }
        }
        if (added.isEmpty()) {
            return condition;
        }
        List<RexNode> out = new ArrayList<>(conjuncts);
        out.addAll(added);
        return RexUtil.composeConjunction(rex, out);
    }

    /** The disjunction over branches of each branch's conjuncts on {@code columns} only; null when a branch has none. */
    private static RexNode impliedOn(RexBuilder rex, List<List<RexNode>> branches, ImmutableBitSet columns) {
        List<RexNode> disjuncts = new ArrayList<>();
        for (List<RexNode> branch : branches) {
            List<RexNode> parts = branch.stream().filter(p -> columns.contains(RelOptUtil.InputFinder.bits(p))).toList();
            if (parts.isEmpty()) {
                return null;
            }
            disjuncts.add(RexUtil.composeConjunction(rex, parts));
        }
        return RexUtil.composeDisjunction(rex, disjuncts);
    }

    /** Deterministic, without subqueries or correlation: safe to evaluate again anywhere below. */
    private static boolean isPlain(RexNode e) {
        return RexUtil.isDeterministic(e) && RexUtil.SubQueryFinder.find(e) == null && !RexUtil.containsCorrelation(e);
    }
}
