package dev.starling.planner.stats;

import java.util.List;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;

/**
 * Calcite's metadata with Starling's estimates in front: selectivities and distinct counts from
 * the stored column statistics, join sizes from the distinct counts of the join keys.
 */
public final class StarlingMetadata {
    private StarlingMetadata() {
    }

    public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new StatsRowCount(), BuiltInMetadata.RowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new StatsSelectivity(), BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new StatsDistinctRowCount(),
                    BuiltInMetadata.DistinctRowCount.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));
}
