package dev.starling.planner.stats;

import dev.starling.planner.schema.StarlingTable;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.Optional;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The stored columns behind a scan's fields, whether the scan is still logical (every table column)
 * or a Starling scan ({@link ProjectedScan}: a projection of them, maybe filtered).
 */
public record ScanColumns(Table table, int[] columns, @Nullable RexNode filter) {

    public static Optional<ScanColumns> of(TableScan scan) {
        StarlingTable t = scan.getTable().unwrap(StarlingTable.class);
        if (t == null) {
            return Optional.empty();
        }
        if (scan instanceof ProjectedScan s) {
            return Optional.of(new ScanColumns(t.table(), s.projects().toIntArray(), s.filter()));
        }
        int[] all = new int[t.table().columns().size()];
        java.util.Arrays.setAll(all, i -> i);
        return Optional.of(new ScanColumns(t.table(), all, null));
    }

    Column column(int field) {
        return table.column(columns[field]);
    }

    double rows() {
        return Math.max(1, table.rowCount());
    }

    /** The rows the scan returns, estimated. */
    public double rowCount() {
        return rows() * selectivity(null);
    }

    /** The fraction of the table's rows that satisfy {@code predicate} (over this scan's fields) and the scan's own filter. */
    double selectivity(@Nullable RexNode predicate) {
        PredicateSelectivity p = new PredicateSelectivity(this);
        return p.of(filter) * p.of(predicate);
    }
}
