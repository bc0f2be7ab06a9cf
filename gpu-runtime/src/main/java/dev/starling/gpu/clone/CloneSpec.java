package dev.starling.gpu.clone;

import dev.starling.gpu.cuda.BankGeometry;

/** Which clone layout of a column: its access mode, budget (entries per value) and window (chunks, writes only). */
public record CloneSpec(AccessMode mode, double budget, int window, BankGeometry geometry) {

    public CloneLayout optimize(ColumnCodes codes) {
        return new CloneLayoutOptimizer(geometry, mode, budget, window).optimize(codes.codes(), codes.cardinality());
    }

    @Override
    public String toString() {
        return mode.name().toLowerCase(java.util.Locale.ROOT) + " budget " + budget
                + (mode == AccessMode.WRITE ? " window " + window : "");
    }
}
