package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnStats;
import java.util.Optional;

/**
 * The statistics of the values a plan's output column holds, where it passes on a table column
 * unchanged (through projections, filters and joins, which keep or drop rows but change no value):
 * that column's, or, for a dense-coded foreign key (which stores codes), its referenced key's.
 * Every value of the column lies within them.
 */
final class ColumnValueStats {
    private ColumnValueStats() { }

    static Optional<ColumnStats> of(PlanNode node, int column, Catalog catalog) {
        return switch (node) {
            case ProjectNode p -> p.expressions().get(column) instanceof ColumnRef ref
                    ? of(p.input(), ref.index(), catalog) : Optional.empty();
            case FilterNode f -> of(f.input(), column, catalog);
            case HashJoinNode j -> {
                int probeWidth = j.probe().output().size();
                yield column < probeWidth ? of(j.probe(), column, catalog)
                        : j.kind() == JoinKind.INNER ? of(j.build(), column - probeWidth, catalog) : Optional.empty();
            }
            case ScanNode s -> s.columns().get(column).mode() == ScanNode.ScanColumn.Mode.VALUE
                    ? of(s.table().column(s.columns().get(column).column()), catalog) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** A table column's value statistics. */
    static Optional<ColumnStats> of(Column column, Catalog catalog) {
        if (!column.isDenseCoded()) {
            return Optional.ofNullable(column.stats());
        }
        Column.DenseReference ref = column.denseReference();
        return of(catalog.require(ref.table()).column(ref.keyColumn()), catalog);
    }
}
