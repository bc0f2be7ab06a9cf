package dev.starling.planner.rel;

import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexInputRef;

/**
 * The stored column a join key comes from, found by following plain column references down to a
 * scan: what decides whether a join can be a dense (array-indexed) join.
 */
public record KeyOrigin(Table table, int column) {

    /**
     * Follows a probe-side field through projections, filters and joins (whose rows keep their
     * column values) down to a scan.
     */
    public static Optional<KeyOrigin> ofProbe(RelNode rel, int field) {
        return switch (rel) {
            case StarlingTableScan scan -> Optional.of(new KeyOrigin(scan.storageTable(), scan.projects().get(field)));
            case StarlingFilter filter -> ofProbe(filter.getInput(), field);
            case StarlingProject project -> project.getProjects().get(field) instanceof RexInputRef ref
                    ? ofProbe(project.getInput(), ref.getIndex()) : Optional.empty();
            case StarlingHashJoin join -> {
                int left = join.getLeft().getRowType().getFieldCount();
                yield field < left ? ofProbe(join.getLeft(), field) : ofProbe(join.getRight(), field - left);
            }
            default -> Optional.empty();
        };
    }

    /**
     * Follows a build-side field through projections and filters only: a dense build side must
     * hold each row of one table at most once.
     */
    public static Optional<KeyOrigin> ofBuild(RelNode rel, int field) {
        return switch (rel) {
            case StarlingTableScan scan -> Optional.of(new KeyOrigin(scan.storageTable(), scan.projects().get(field)));
            case StarlingFilter filter -> ofBuild(filter.getInput(), field);
            case StarlingProject project -> project.getProjects().get(field) instanceof RexInputRef ref
                    ? ofBuild(project.getInput(), ref.getIndex()) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** Whether this foreign-key column holds dense codes into {@code dimension}'s primary key column. */
    public boolean isDenseReferenceTo(KeyOrigin dimension) {
        Column fk = table.column(column);
        if (!fk.isDenseCoded()) {
            return false;
        }
        Column.DenseReference ref = fk.denseReference();
        Table dim = dimension.table;
        return ref.table().equals(dim.name())
                && dim.schema().primaryKey().equals(List.of(ref.keyColumn()))
                && dim.column(dimension.column).name().equals(ref.keyColumn());
    }
}
