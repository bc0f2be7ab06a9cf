package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.storage.Column;
import java.util.Optional;

/**
 * Where an output column of a plan comes from unchanged: column {@code column} of {@code scan}'s
 * output, passed on by projections, and through filters (or the scan's own; {@code filtered}),
 * joins ({@code joined}), which keep or drop rows but change no value, and aggregations as a group
 * key (counted as both: their rows are not the table's). What a dimension's key is worth (unique,
 * how many values, in what range) follows from it.
 */
record ScanColumnOrigin(ScanNode scan, int column, boolean filtered, boolean joined) {

    /** The origin of output column {@code column} of {@code node}, if it passes a scan's column on unchanged. */
    static Optional<ScanColumnOrigin> of(PlanNode node, int column) {
        return trace(node, column, false, false);
    }

    private static Optional<ScanColumnOrigin> trace(PlanNode node, int column, boolean filtered, boolean joined) {
        return switch (node) {
            case ProjectNode p -> p.expressions().get(column) instanceof ColumnRef ref
                    ? trace(p.input(), ref.index(), filtered, joined) : Optional.empty();
            case FilterNode f -> trace(f.input(), column, true, joined);
            case HashJoinNode j -> {
                int probeWidth = j.probe().output().size();
                yield column < probeWidth ? trace(j.probe(), column, filtered, true)
                        : j.kind() == JoinKind.INNER ? trace(j.build(), column - probeWidth, filtered, true)
                        : Optional.empty();
            }
            case AggregateNode a -> column < a.groupKeys().length
                    ? trace(a.input(), a.groupKeys()[column], true, true) : Optional.empty();
            case ScanNode s -> Optional.of(new ScanColumnOrigin(s, column, filtered || s.filter() != null, joined));
            default -> Optional.empty();
        };
    }

    /** The table column whose values these are, when the scan reads values (not codes or row ids). */
    Optional<Column> valueColumn() {
        ScanNode.ScanColumn c = scan.columns().get(column);
        return c.mode() == ScanNode.ScanColumn.Mode.VALUE ? Optional.of(scan.table().column(c.column())) : Optional.empty();
    }
}
