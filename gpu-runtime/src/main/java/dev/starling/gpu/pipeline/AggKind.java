package dev.starling.gpu.pipeline;

/** What an aggregate slot folds, and the state a group's fold starts from. */
enum AggKind {
    COUNT, SUM_I, SUM_F, MIN_I, MAX_I, MIN_F, MAX_F;

    /** The low word of a fresh state: the fold's identity (a double's as its bits). */
    long identity() {
        return switch (this) {
            case MIN_I -> Long.MAX_VALUE;
            case MAX_I -> Long.MIN_VALUE;
            case MIN_F -> Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
            case MAX_F -> Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);
            default -> 0;
        };
    }
}
