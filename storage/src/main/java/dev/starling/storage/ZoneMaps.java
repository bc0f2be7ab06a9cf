package dev.starling.storage;

/** Computes the zone map of a chunk. */
public final class ZoneMaps {
    private ZoneMaps() { }

    public static ZoneMap of(ColumnChunk c) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        double minD = Double.POSITIVE_INFINITY;
        double maxD = Double.NEGATIVE_INFINITY;
        int nonNull = 0;
        long small = 0;
        boolean isDouble = c.physical() == DataType.Physical.FLOAT64;
        boolean nan = false;
        for (int r = 0; r < c.rows(); r++) {
            if (c.isNull(r)) {
                continue;
            }
            nonNull++;
            if (isDouble) {
                double v = c.getDouble(r);
                nan |= Double.isNaN(v);
                minD = Math.min(minD, v);
                maxD = Math.max(maxD, v);
            } else {
                long v = c.getAsLong(r);
                min = Math.min(min, v);
                max = Math.max(max, v);
                if (v >= 0 && v < Long.SIZE) {
                    small |= 1L << v;
                }
            }
        }
        if (nan) {
            // NaN is unordered for Math.min/max; a chunk holding one must never be skipped by a range.
            minD = Double.NEGATIVE_INFINITY;
            maxD = Double.POSITIVE_INFINITY;
        }
        if (!isDouble && nonNull > 0) {
            minD = min;
            maxD = max;
        }
        // the set of values is known where every value is small
        long absentSmall = !isDouble && nonNull > 0 && min >= 0 && max < Long.SIZE ? ~small : 0;
        return new ZoneMap(min, max, minD, maxD, nonNull, c.rows() - nonNull, absentSmall);
    }
}
