package dev.starling.exec.vector;

import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * One column of a batch. Every kind but DOUBLE travels as {@code longs} (INTEGER, BIGINT, DATE as
 * days, DECIMAL scaled, BOOLEAN 0/1, VARCHAR as codes into {@code dict}); DOUBLE as {@code doubles}.
 * {@code nulls} is null when no row is NULL; a NULL row's value slot holds 0. Arrays may be longer
 * than the batch (shared constant vectors), so the row count always comes from the batch. Vectors
 * are never modified once built, which is what lets operators share them.
 */
public record Vector(DataType type, long[] longs, double[] doubles, boolean[] nulls, StrDict dict) {

    public static Vector ofLongs(DataType type, long[] values, boolean[] nulls) {
        return new Vector(type, values, null, nulls, null);
    }

    public static Vector ofDoubles(double[] values, boolean[] nulls) {
        return new Vector(DataType.DOUBLE, null, values, nulls, null);
    }

    public static Vector ofCodes(DataType type, long[] codes, boolean[] nulls, StrDict dict) {
        return new Vector(type, codes, null, nulls, dict);
    }

    /** A vector of {@code rows} copies of one value (null allowed), in the storage conventions of {@code type}. */
    public static Vector constant(DataType type, Object value, int rows) {
        boolean[] nulls = null;
        if (value == null) {
            nulls = new boolean[rows];
            java.util.Arrays.fill(nulls, true);
        }
        if (type.kind() == DataType.Kind.DOUBLE) {
            double[] d = new double[rows];
            if (value != null) {
                java.util.Arrays.fill(d, ((Number) value).doubleValue());
            }
            return ofDoubles(d, nulls);
        }
        long[] l = new long[rows];
        if (type.kind() == DataType.Kind.VARCHAR) {
            return ofCodes(type, l, nulls, value == null ? StrDict.EMPTY : StrDict.of((String) value));
        }
        if (value != null) {
            java.util.Arrays.fill(l, value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).longValue());
        }
        return ofLongs(type, l, nulls);
    }

    public boolean isDouble() {
        return doubles != null;
    }

    public boolean isNull(int row) {
        return nulls != null && nulls[row];
    }

    public long getLong(int row) {
        return longs[row];
    }

    public double getDouble(int row) {
        return doubles[row];
    }

    public String getString(int row) {
        return dict.get((int) longs[row]);
    }

    /** The row's value as a Java object: Integer, Long, BigDecimal, Double, LocalDate, Boolean, String or null. */
    public Object value(int row) {
        if (isNull(row)) {
            return null;
        }
        return switch (type.kind()) {
            case INTEGER -> (int) longs[row];
            case BIGINT -> longs[row];
            case DOUBLE -> doubles[row];
            case DECIMAL -> BigDecimal.valueOf(longs[row], type.scale());
            case DATE -> LocalDate.ofEpochDay(longs[row]);
            case BOOLEAN -> longs[row] != 0;
            case VARCHAR -> getString(row);
        };
    }

    /** Rows {@code sel[0..n)}; an index of -1 yields NULL (outer-join padding). */
    public Vector gather(int[] sel, int n) {
        boolean[] outNulls = null;
        boolean padded = false;
        for (int i = 0; i < n; i++) {
            if (sel[i] < 0) {
                padded = true;
                break;
            }
        }
        if (nulls != null || padded) {
            outNulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                outNulls[i] = s < 0 || (nulls != null && nulls[s]);
            }
        }
        if (doubles != null) {
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                out[i] = s < 0 ? 0 : doubles[s];
            }
            return new Vector(type, null, out, outNulls, dict);
        }
        long[] out = new long[n];
        if (padded) {
            for (int i = 0; i < n; i++) {
                int s = sel[i];
                out[i] = s < 0 ? 0 : longs[s];
            }
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = longs[sel[i]];
            }
        }
        return new Vector(type, out, null, outNulls, dict);
    }

    /** Rows {@code [from, to)} as a vector of their own. */
    public Vector slice(int from, int to) {
        boolean[] n = nulls == null ? null : java.util.Arrays.copyOfRange(nulls, from, to);
        return doubles != null
                ? new Vector(type, null, java.util.Arrays.copyOfRange(doubles, from, to), n, dict)
                : new Vector(type, java.util.Arrays.copyOfRange(longs, from, to), null, n, dict);
    }
}
