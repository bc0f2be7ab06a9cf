package dev.starling.exec.eval;

import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/** Moves numeric vectors between the exact scaled-long domain and doubles. */
final class Numbers {
    private Numbers() { }

    static int scale(DataType t) {
        return t.kind() == DataType.Kind.DECIMAL ? t.scale() : 0;
    }

    static boolean isExact(DataType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DECIMAL, BOOLEAN -> true;
            default -> false;
        };
    }

    /** The values of a non-DOUBLE numeric vector at {@code toScale}. */
    static long[] scaled(Vector v, int n, int toScale) {
        int from = scale(v.type());
        long[] in = v.longs();
        if (from == toScale) {
            return in;
        }
        long[] out = new long[n];
        if (toScale > from) {
            long f = Decimals.pow10(toScale - from);
            for (int i = 0; i < n; i++) {
                out[i] = Decimals.multiply(in[i], f);
            }
        } else {
            long f = Decimals.pow10(from - toScale);
            for (int i = 0; i < n; i++) {
                out[i] = Decimals.divideRound(in[i], f);
            }
        }
        return out;
    }

    static double[] doubles(Vector v, int n) {
        if (v.isDouble()) {
            return v.doubles();
        }
        double[] out = new double[n];
        long[] in = v.longs();
        int s = scale(v.type());
        if (s == 0) {
            for (int i = 0; i < n; i++) {
                out[i] = in[i];
            }
        } else {
            double f = Decimals.pow10(s);
            for (int i = 0; i < n; i++) {
                out[i] = in[i] / f;
            }
        }
        return out;
    }

    /** Exact values at {@code scale} converted to {@code to} (a numeric type). */
    static Vector fromScaled(long[] values, boolean[] nulls, int n, int scale, DataType to) {
        if (to.kind() == DataType.Kind.DOUBLE) {
            double[] out = new double[n];
            double f = Decimals.pow10(scale);
            for (int i = 0; i < n; i++) {
                out[i] = values[i] / f;
            }
            return Vector.ofDoubles(out, nulls);
        }
        long[] out = scale == scale(to) ? values : scaled(Vector.ofLongs(scaleType(scale), values, nulls), n, scale(to));
        if (to.kind() == DataType.Kind.INTEGER) {
            checkInt(out, nulls, n);
        }
        return Vector.ofLongs(to, out, nulls);
    }

    static Vector fromDoubles(double[] values, boolean[] nulls, int n, DataType to) {
        if (to.kind() == DataType.Kind.DOUBLE) {
            return Vector.ofDoubles(values, nulls);
        }
        long[] out = new long[n];
        double f = Decimals.pow10(scale(to));
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

    /** Any numeric vector converted to {@code to}. */
    static Vector convert(Vector v, int n, DataType to) {
        if (v.type().equals(to)) {
            return v;
        }
        return v.isDouble() ? fromDoubles(v.doubles(), v.nulls(), n, to)
                : fromScaled(v.longs(), v.nulls(), n, scale(v.type()), to);
    }

    private static DataType scaleType(int scale) {
        return scale == 0 ? DataType.BIGINT : DataType.decimal(18, scale);
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
