package dev.starling.exec.eval;

import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * Numeric conversion (a CAST between numeric types) and null merging: exact values rescale, rounding
 * half away from zero when the scale shrinks; doubles round half away to an exact type; INTEGER
 * results are range-checked.
 */
final class Numbers {
    private Numbers() { }

    /** Any numeric vector converted to {@code to}. */
    static Vector convert(Vector v, int n, DataType to) {
        if (v.type().equals(to)) {
            return v;
        }
        return v.isDouble() ? fromDoubles(v.doubles(), v.nulls(), n, to) : fromScaled(v.longs(), v.nulls(), n, v.type().scale(), to);
    }

    private static Vector fromScaled(long[] values, boolean[] nulls, int n, int scale, DataType to) {
        if (to.kind() == DataType.Kind.DOUBLE) {
            double[] out = new double[n];
            double f = Decimals.pow10(scale);
            for (int i = 0; i < n; i++) {
                out[i] = values[i] / f;
            }
            return Vector.ofDoubles(out, nulls);
        }
        long[] out = rescaled(values, n, scale, to.scale());
        if (to.kind() == DataType.Kind.INTEGER) {
            checkInt(out, nulls, n);
        }
        return Vector.ofLongs(to, out, nulls);
    }

    private static long[] rescaled(long[] in, int n, int from, int to) {
        if (from == to) {
            return in;
        }
        long[] out = new long[n];
        if (to > from) {
            long f = Decimals.pow10(to - from);
            for (int i = 0; i < n; i++) {
                out[i] = Decimals.multiply(in[i], f);
            }
        } else {
            long f = Decimals.pow10(from - to);
            for (int i = 0; i < n; i++) {
                out[i] = Decimals.divideRound(in[i], f);
            }
        }
        return out;
    }

    private static Vector fromDoubles(double[] values, boolean[] nulls, int n, DataType to) {
        if (to.kind() == DataType.Kind.DOUBLE) {
            return Vector.ofDoubles(values, nulls);
        }
        long[] out = new long[n];
        double f = Decimals.pow10(to.scale());
        for (int i = 0; i < n; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.roundHalfAway(values[i] * f);
            }
        }
        if (to.kind() == DataType.Kind.INTEGER) {
            checkInt(out, nulls, n);
        }
        return Vector.ofLongs(to, out, nulls);
    }

    private static void checkInt(long[] v, boolean[] nulls, int n) {
        for (int i = 0; i < n; i++) {
            if (v[i] != (int) v[i] && (nulls == null || !nulls[i])) {
                throw new ArithmeticException("INTEGER overflow: " + v[i]);
            }
        }
    }

    static boolean[] orNulls(boolean[] a, boolean[] b, int n) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        boolean[] out = new boolean[n];
        for (int i = 0; i < n; i++) {
            out[i] = a[i] | b[i];
        }
        return out;
    }
}
