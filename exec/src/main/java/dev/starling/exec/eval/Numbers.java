package dev.starling.exec.eval;

import dev.starling.exec.InvalidCastException;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.util.function.IntFunction;

/**
 * Numeric conversion (a CAST between numeric types) and null merging: exact values rescale, rounding
 * half away from zero when the scale shrinks; doubles round half away to an exact type; INTEGER
 * and DECIMAL(p,s) results are range-checked (a DECIMAL's value has at most p - s whole digits).
 */
final class Numbers {
    private Numbers() { }

    /** Any numeric vector converted to {@code to}. */
    static Vector convert(Vector v, int n, DataType to) {
        if (v.type().equals(to)) {
            return v;
        }
        return v.isDouble() ? fromDoubles(v.doubles(), v.nulls(), n, to) : fromScaled(v.longs(), v.nulls(), n, v.type(), to);
    }

    private static Vector fromScaled(long[] values, boolean[] nulls, int n, DataType from, DataType to) {
        int scale = from.kind() == DataType.Kind.DECIMAL ? from.scale() : 0;
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
        } else if (to.kind() == DataType.Kind.DECIMAL && !to.holdsEveryCastOf(from)) {
            checkDigits(out, nulls, n, to, i -> BigDecimal.valueOf(values[i], scale).toPlainString());
        }
        return Vector.ofLongs(to, out, nulls);
    }

    private static long[] rescaled(long[] in, int n, int from, int to) {
        if (from == to) {
            return in;
        }
        long[] out = new long[n];
        if (to > from) {
            // Only a DECIMAL gains scale, and a value past 64 bits is past its range: saturated here,
            // the range check names it.
            long f = Decimals.pow10(to - from);
            long most = Long.MAX_VALUE / f;
            for (int i = 0; i < n; i++) {
                out[i] = in[i] >= -most && in[i] <= most ? in[i] * f : in[i] < 0 ? -Long.MAX_VALUE : Long.MAX_VALUE;
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
        } else if (to.kind() == DataType.Kind.DECIMAL) {
            checkDigits(out, nulls, n, to, i -> Double.toString(values[i]));
        }
        return Vector.ofLongs(to, out, nulls);
    }

    /**
     * Fails at the first value of {@code v} (unscaled, of DECIMAL {@code to}) that the type cannot
     * hold, naming the value it was cast from ({@code source} of its row).
     */
    private static void checkDigits(long[] v, boolean[] nulls, int n, DataType to, IntFunction<String> source) {
        long limit = to.unscaledLimit();
        for (int i = 0; i < n; i++) {
            if ((v[i] >= limit || v[i] <= -limit) && (nulls == null || !nulls[i])) {
                throw outOfRange(source.apply(i), to);
            }
        }
    }

    /** The error of a CAST whose value ({@code text}) has more whole digits than DECIMAL {@code to} holds. */
    static InvalidCastException outOfRange(String text, DataType to) {
        return new InvalidCastException("cannot cast " + text + " to " + to + ": out of range (at most "
                + to.wholeDigits() + " digits before the decimal point)", null);
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
