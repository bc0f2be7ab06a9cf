package dev.starling.exec.op;

import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * Finishes aggregates whose per-group states were computed by another backend (the GPU): the
 * states are those of the CPU's aggregation (a count of the values seen, and their sum, minimum or
 * maximum as exact longs or as doubles), so the results, their types, rounding and NULLs are the
 * CPU backend's own.
 */
public final class AggregateStates {
    private AggregateStates() { }

    /** Whether the call keeps doubles; {@code argType} is null for COUNT(*). */
    public static boolean usesDoubles(AggCall call, DataType argType) {
        return new Accumulator(call, argType).usesDoubles();
    }

    /**
     * The result of {@code call} for {@code groups} groups from their states: {@code counts} of
     * values seen, and {@code longs} or {@code doubles} (as {@link #usesDoubles} says; the other may
     * be null) holding the sums (SUM, AVG) or extremes (MIN, MAX).
     */
    public static Vector result(AggCall call, DataType argType, long[] counts, long[] longs, double[] doubles, int groups) {
        Accumulator a = new Accumulator(call, argType);
        a.load(counts, longs == null ? new long[groups] : longs, doubles == null ? new double[groups] : doubles);
        return a.result(groups);
    }
}
