package dev.starling.storage;

/**
 * Min and max of the non-null values of one chunk, in the stored domain: integers (and dates,
 * decimals, booleans, dictionary or foreign-key codes) in {@code min}/{@code max}, doubles in
 * {@code minDouble}/{@code maxDouble}. {@code nonNull == 0} means the chunk holds only NULLs.
 */
public record ZoneMap(long min, long max, double minDouble, double maxDouble, int nonNull, int nulls) {

    public boolean mayContainRange(long lo, long hi) {
        return nonNull > 0 && max >= lo && min <= hi;
    }

    public boolean mayContainRange(double lo, double hi) {
        return nonNull > 0 && maxDouble >= lo && minDouble <= hi;
    }
}
