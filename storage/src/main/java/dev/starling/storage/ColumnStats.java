package dev.starling.storage;

import java.util.List;

/**
 * Statistics of a column in its stored domain (codes for VARCHAR and foreign keys).
 * {@code distinct} is exact up to {@link #EXACT_DISTINCT_LIMIT} values and estimated beyond.
 * {@code measuredRows}: the rows {@code distinct} and {@code mostFrequent} were counted over. Rows
 * appended since are in {@code rows}, {@code nulls}, {@code min} and {@code max} (always exact),
 * and bound {@code distinct} from above ({@code distinctExact} false), until they come to more
 * than a tenth of the rows counted and every value is counted again: an append costs in
 * proportion to its rows, not to the table's.
 */
public record ColumnStats(long rows, long nulls, long distinct, boolean distinctExact,
                          long min, long max, double minDouble, double maxDouble,
                          List<ValueCount> mostFrequent, long measuredRows) {

    public static final int EXACT_DISTINCT_LIMIT = 1 << 20;
    public static final int MOST_FREQUENT = 10;

    /** A stored value (long bits; doubles as raw long bits) and how often it occurs. */
    public record ValueCount(long value, long count) { }

    /** How many values lie from {@code min} to {@code max}, both included; 0 when that passes 2^63 - 1. */
    public static long valuesBetween(long min, long max) {
        try {
            return Math.addExact(Math.subtractExact(max, min), 1);
        } catch (ArithmeticException wide) {
            return 0;
        }
    }

    public static ColumnStats empty() {
        return new ColumnStats(0, 0, 0, true, 0, 0, 0, 0, List.of(), 0);
    }
}
