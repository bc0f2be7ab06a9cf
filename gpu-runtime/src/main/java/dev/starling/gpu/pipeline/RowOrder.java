package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.plan.Field;
import dev.starling.storage.DataType;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Only the first {@code count} rows of a selection in the order of its output {@code output}, which
 * a sort with a limit over them keeps (ORDER BY ... LIMIT): the device finds the key of the
 * {@code count}-th row ({@link KeyThreshold}) and gathers only the rows that {@code count} others do
 * not strictly precede (ties with the last one kept stay), so that the other rows neither cross the
 * link nor are decoded. The sort and limit above still run on the CPU over those. The column must
 * be a number or date the kernel computes (a string's codes do not follow its order) and never
 * NULL; {@code floating}: a double, whose bits the key reorders. {@code expectedRows}: how many
 * rows the optimizer expects to pass (NaN where it has no estimate); past the kernel's first room
 * for rows, the keys are written first ({@link StarRowsRun}).
 */
public record RowOrder(int output, boolean descending, boolean floating, long count, String label, double expectedRows) {

    /**
     * The order {@code first} gives the rows of {@code pipeline}, a selection, when its column
     * allows one; {@code expected}: the rows the optimizer expects to pass.
     */
    public static Optional<RowOrder> of(StarPipeline pipeline, GroupsWanted.First first, OptionalDouble expected) {
        if (first == null) {
            return Optional.empty();
        }
        Field field = pipeline.node().output().get(first.column());
        if (field.nullable() || !(pipeline.outputs().get(first.column()) instanceof StarPipeline.Output.Value v)
                || v.type().kind() == DataType.Kind.BOOLEAN) {
            return Optional.empty();
        }
        return Optional.of(new RowOrder(first.column(), first.descending(), v.type().kind() == DataType.Kind.DOUBLE,
                first.count(), field.name(), expected.orElse(Double.NaN)));
    }

    /** For EXPLAIN. */
    public String describe() {
        return "of its rows, only the first " + count + " by " + label + (descending ? " DESC" : "")
                + " (and ties) come back";
    }
}
