package dev.starling.planner.stats;

import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMdSelectivity;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The selectivity of a predicate over a scan, from its columns' statistics. */
public class StatsSelectivity extends RelMdSelectivity {
    @Override
    public @Nullable Double getSelectivity(TableScan rel, RelMetadataQuery mq, @Nullable RexNode predicate) {
        return ScanColumns.of(rel)
                .map(s -> new PredicateSelectivity(s).of(predicate))
                .orElseGet(() -> super.getSelectivity(rel, mq, predicate));
    }
}
