package dev.starling.gpu.pipeline;

import dev.starling.exec.plan.PlanNode;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnStats;
import java.util.Optional;

/**
 * The statistics of the values a plan's output column holds, where it passes on a table column
 * unchanged ({@link ScanColumnOrigin}): that column's, or, for a dense-coded foreign key (which
 * stores codes), its referenced key's.
 * Every value of the column lies within them.
 */
final class ColumnValueStats {
    private ColumnValueStats() { }

    static Optional<ColumnStats> of(PlanNode node, int column, Catalog catalog) {
        return ScanColumnOrigin.of(node, column).flatMap(ScanColumnOrigin::valueColumn).flatMap(c -> of(c, catalog));
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
