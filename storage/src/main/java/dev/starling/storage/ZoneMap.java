package dev.starling.storage;

/**
 * Min and max of the non-null values of one chunk, in the stored domain: integers (and dates,
 * decimals, booleans, dictionary or foreign-key codes) in {@code min}/{@code max}, doubles in
 * {@code minDouble}/{@code maxDouble}. {@code nonNull == 0} means the chunk holds only NULLs. For a
 * chunk whose values all lie in [0, 64) (a small dictionary's codes, a small dimension's dense
 * codes, small counts), {@code absentSmall} has bit v set for each such v the chunk does not hold:
 * its set of values, which a predicate's values can miss inside [min, max]; 0 (nothing known
 * absent) for any other chunk, and for zone maps written before it was kept.
 */
public record ZoneMap(long min, long max, double minDouble, double maxDouble, int nonNull, int nulls, long absentSmall) {

    public boolean mayContainRange(long lo, long hi) {
        return nonNull > 0 && max >= lo && min <= hi;
    }

    public boolean mayContainRange(double lo, double hi) {
        return nonNull > 0 && maxDouble >= lo && minDouble <= hi;
    }

    /** Whether the chunk may hold {@code v}: within [min, max], and not among the small values it lacks. */
    public boolean mayContain(long v) {
        return mayContainRange(v, v) && !(v >= 0 && v < Long.SIZE && (absentSmall >>> v & 1) != 0);
    }
}
