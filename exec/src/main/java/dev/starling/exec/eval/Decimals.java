package dev.starling.exec.eval;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** Exact arithmetic on longs scaled by powers of ten, rounding half away from zero. */
public final class Decimals {
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private Decimals() { }

    public static long pow10(int n) {
        if (n < 0 || n >= POW10.length) {
            throw new ArithmeticException("decimal scale difference " + n + " is out of range");
        }
        return POW10[n];
    }

    /** {@code v} at scale {@code from} expressed at scale {@code to}. */
    public static long rescale(long v, int from, int to) {
        if (from == to) {
            return v;
        }
        if (to > from) {
            return multiply(v, pow10(to - from));
        }
        return divideRound(v, pow10(from - to));
    }

    public static long multiply(long a, long b) {
        long r = a * b;
        if (Math.multiplyHigh(a, b) != (r >> 63)) {
            throw new ArithmeticException("numeric overflow: " + a + " * " + b + " exceeds 64 bits");
        }
        return r;
    }

    public static long add(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw new ArithmeticException("numeric overflow: " + a + " + " + b + " exceeds 64 bits");
        }
        return r;
    }

    public static long subtract(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            throw new ArithmeticException("numeric overflow: " + a + " - " + b + " exceeds 64 bits");
        }
        return r;
    }

    /** Integer division, truncating. */
    public static long divideTruncated(long a, long b) {
        if (b == 0) {
            throw new ArithmeticException("division by zero");
        }
        if (a == Long.MIN_VALUE && b == -1) {
            throw new ArithmeticException("numeric overflow: " + a + " / " + b + " exceeds 64 bits");
        }
        return a / b;
    }

    /** a / b rounded half away from zero. */
    public static long divideRound(long a, long b) {
        long q = divideTruncated(a, b);
        long r = a % b;
        if (r != 0 && Math.abs(r) >= Math.abs(b) - Math.abs(r)) {
            q += (a < 0) == (b < 0) ? 1 : -1;
        }
        return q;
    }

    /** (a * 10^shift) / b rounded half away from zero, exact even when the product needs more than 64 bits. */
    public static long scaledDivide(long a, int shift, long b) {
        if (b == 0) {
            throw new ArithmeticException("division by zero");
        }
        if (shift < 0) {
            return divideRound(divideRound(a, pow10(-shift)), b);
        }
        long p = pow10(shift);
        long prod = a * p;
        if (Math.multiplyHigh(a, p) == (prod >> 63)) {
            return divideRound(prod, b);
        }
        BigDecimal q = new BigDecimal(BigInteger.valueOf(a).multiply(BigInteger.valueOf(p)))
                .divide(BigDecimal.valueOf(b), 0, RoundingMode.HALF_UP);
        return q.longValueExact();
    }

    /** (a * b) scaled down by 10^drop, rounded, exact through 128 bits when needed. */
    public static long multiplyRescale(long a, long b, int drop) {
        long prod = a * b;
        if (Math.multiplyHigh(a, b) == (prod >> 63)) {
            return drop >= 0 ? divideRound(prod, pow10(drop)) : multiply(prod, pow10(-drop));
        }
        BigDecimal exact = new BigDecimal(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)), drop);
        try {
            return exact.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw new ArithmeticException("numeric overflow: " + exact + " exceeds 64 bits");
        }
    }

    /** Half away from zero, as SQL rounds decimals. */
    public static long roundHalfAway(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x) || Math.abs(x) >= 9.2e18) {
            throw new ArithmeticException("numeric overflow: " + x + " does not fit a 64-bit decimal");
        }
        return x < 0 ? -Math.round(-x) : Math.round(x);
    }
}
