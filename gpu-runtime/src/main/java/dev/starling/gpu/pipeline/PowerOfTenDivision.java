package dev.starling.gpu.pipeline;

import java.math.BigInteger;

/**
 * Unsigned 64-bit division by 10^k as a multiply-high and shifts (Granlund and Montgomery's
 * round-up method), because a GPU divides 64-bit integers in a long software sequence and
 * decimal rescaling divides once per row: {@code t = mulhi(n, magic)},
 * {@code n / 10^k = (t + ((n - t) >>> 1)) >>> (shift - 1)}, exact for every 64-bit n.
 */
record PowerOfTenDivision(long divisor, long magic, int shift) {

    static PowerOfTenDivision of(int k) {
        if (k < 1 || k > 18) {
            throw new IllegalArgumentException("10^" + k + " is not a 64-bit power of ten above 1");
        }
        long d = pow10(k);
        int l = 64 - Long.numberOfLeadingZeros(d - 1);
        BigInteger m = BigInteger.ONE.shiftLeft(64).multiply(BigInteger.ONE.shiftLeft(l).subtract(BigInteger.valueOf(d)))
                .divide(BigInteger.valueOf(d)).add(BigInteger.ONE);
        return new PowerOfTenDivision(d, m.longValue(), l);
    }

    /** What the kernel computes, for checking the constants. */
    long divideUnsigned(long n) {
        long t = Math.unsignedMultiplyHigh(n, magic);
        return (t + ((n - t) >>> 1)) >>> (shift - 1);
    }

    static long pow10(int k) {
        long r = 1;
        for (int i = 0; i < k; i++) {
            r *= 10;
        }
        return r;
    }
}
