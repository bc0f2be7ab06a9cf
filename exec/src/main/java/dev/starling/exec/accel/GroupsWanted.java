package dev.starling.exec.accel;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;

/**
 * What the plan above an aggregation keeps of its groups, which an accelerator may use to send
 * back fewer: {@code having}, a condition every kept row passes (a filter directly over the
 * aggregation's rows, or an inner join of them with {@code scalar}); {@code scalar}, a plan of at
 * most one row whose columns {@code having} reads after the aggregation's own (a scalar subquery
 * the rows are compared with; null: none), run before the aggregation; {@code first}, a sort
 * with a limit over them (each null when there is none). The plan above still runs over what
 * comes back, but for {@code above}: the plan over the groups that tops a pipeline computing
 * nothing else from them (projections, filters, inner joins with a plan of at most one row; null:
 * none), whose rows the accelerator may hand back instead of the groups'
 * ({@link DevicePlan#computesAbove}).
 */
public record GroupsWanted(Expr having, PlanNode scalar, First first, PlanNode above) {
    /** Nothing known: every group is wanted. */
    public static final GroupsWanted ALL = new GroupsWanted(null, null, null, null);

    public GroupsWanted(Expr having, PlanNode scalar, First first) {
        this(having, scalar, first, null);
    }

    /** These, and {@code above}, the plan over the groups. */
    public GroupsWanted above(PlanNode above) {
        return new GroupsWanted(having, scalar, first, above);
    }

    /**
     * Only the first {@code count} rows in the order of column {@code column} ({@code descending}
     * or not) of the rows below a sort with a limit (an aggregation's groups, or a selection's
     * rows) are kept: a row that has {@code count} others strictly before it is not wanted.
     */
    public record First(int column, boolean descending, long count) {
        /** The first rows {@code sort} keeps of its input: by its first key, its offset and limit; null without a limit or keys. */
        public static First of(SortNode sort) {
            if (sort.limit() < 0 || sort.keys().isEmpty()) {
                return null;
            }
            SortNode.SortKey key = sort.keys().get(0);
            return new First(key.column(), key.descending(),
                    sort.offset() > Long.MAX_VALUE - sort.limit() ? Long.MAX_VALUE : sort.offset() + sort.limit());
        }
    }
}
