package dev.starling.planner.optimize;

import dev.starling.planner.sql.StarlingSqlException;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;

/**
 * Rejects, naming it, any construct of an optimized logical plan that Starling's physical
 * operators cannot run, so users get a clear message instead of a planner failure.
 */
final class UnsupportedConstructs extends RelVisitor {

    static RelNode check(RelNode rel) {
        new UnsupportedConstructs().go(rel);
        return rel;
    }

    @Override
    public void visit(RelNode node, int ordinal, RelNode parent) {
        String construct = construct(node);
        if (construct != null) {
            throw StarlingSqlException.unsupported(construct);
        }
        for (RexNode e : expressions(node)) {
            if (RexOver.containsOver(e)) {
                throw StarlingSqlException.unsupported("window function (OVER)");
            }
            if (RexUtil.SubQueryFinder.find(e) != null) {
                throw StarlingSqlException.unsupported("subquery in " + node.getRelTypeName());
            }
        }
        super.visit(node, ordinal, parent);
    }

    private static String construct(RelNode node) {
        return switch (node) {
            case Correlate c -> "correlated subquery that cannot be decorrelated";
            case Window w -> "window function (OVER)";
            case Intersect i -> "INTERSECT";
            case Minus m -> "EXCEPT";
            case Join j when j.getJoinType() == JoinRelType.FULL -> "FULL OUTER JOIN";
            case Join j when j.getJoinType() == JoinRelType.ASOF || j.getJoinType() == JoinRelType.LEFT_ASOF -> "ASOF JOIN";
            case Aggregate a when a.getGroupType() != Aggregate.Group.SIMPLE -> "GROUPING SETS, ROLLUP or CUBE";
            case LogicalUnion u when !u.all -> "UNION (distinct) that was not rewritten";
            case LogicalTableScan s -> null;
            case LogicalFilter f -> null;
            case LogicalProject p -> null;
            case LogicalJoin j -> null;
            case LogicalAggregate a -> null;
            case LogicalSort s -> null;
            case LogicalValues v -> null;
            case LogicalUnion u -> null;
            default -> "operator " + node.getRelTypeName();
        };
    }

    private static java.util.List<RexNode> expressions(RelNode node) {
        return switch (node) {
            case Project p -> p.getProjects();
            case LogicalFilter f -> java.util.List.of(f.getCondition());
            case Join j -> java.util.List.of(j.getCondition());
            default -> java.util.List.of();
        };
    }
}
