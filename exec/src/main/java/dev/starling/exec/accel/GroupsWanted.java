package dev.starling.exec.accel;

import dev.starling.exec.expr.Expr;

/**
 * What the plan above an aggregation keeps of its groups, which an accelerator may use to send
 * back fewer: {@code having}, the condition of a filter directly over the aggregation's rows, and
 * {@code first}, a sort with a limit over them (either null when there is none). The plan above
 * still runs over what comes back.
 */
public record GroupsWanted(Expr having, First first) {
    /** Nothing known: every group is wanted. */
    public static final GroupsWanted ALL = new GroupsWanted(null, null);

    /**
     * Only the first {@code count} rows in the order of the aggregation's output column
     * {@code column} ({@code descending} or not) are kept: a group that has {@code count} others
     * strictly before it is not wanted.
     */
    public record First(int column, boolean descending, long count) { }
}
