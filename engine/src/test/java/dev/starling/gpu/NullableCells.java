package dev.starling.gpu;

import dev.starling.storage.TableBuilder;

/** Test tables' cells that are NULL now and then. */
final class NullableCells {
    private NullableCells() { }

    /** Sets column {@code column} of the row being built to NULL when {@code isNull}, else as {@code set} does. */
    static void nullOr(TableBuilder b, int column, boolean isNull, Runnable set) {
        if (isNull) {
            b.setNull(column);
        } else {
            set.run();
        }
    }
}
