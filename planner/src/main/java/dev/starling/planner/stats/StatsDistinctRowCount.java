package dev.starling.planner.stats;

import dev.starling.storage.ColumnStats;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMdDistinctRowCount;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The distinct values of scanned columns: the columns' distinct counts (their product for several,
 * as if independent, at most the row count), thinned by the scan's filter and the predicate.
 */
public class StatsDistinctRowCount extends RelMdDistinctRowCount {
    /** A column with at least this share of distinct values is treated as a key: a filter keeps its values in proportion. */
    private static final double UNIQUE = 0.99;

    @Override
    public @Nullable Double getDistinctRowCount(TableScan rel, RelMetadataQuery mq, ImmutableBitSet groupKey,
                                                @Nullable RexNode predicate) {
        var scan = ScanColumns.of(rel);
        if (scan.isEmpty()) {
            return super.getDistinctRowCount(rel, mq, groupKey, predicate);
        }
        ScanColumns s = scan.get();
        double rows = s.rows();
        if (groupKey.isEmpty()) {
            return 1.0;
        }
        double distinct = 1;
        for (int field : groupKey) {
            ColumnStats stats = s.column(field).stats();
            distinct *= Math.max(1, stats.distinct() + (stats.nulls() > 0 ? 1 : 0));
        }
        distinct = Math.min(distinct, rows);
        double selected = rows * s.selectivity(predicate);
        if (distinct >= rows * UNIQUE) {
            return Math.max(1, distinct * selected / rows);
        }
        return RelMdUtil.numDistinctVals(distinct, selected);
    }
}
