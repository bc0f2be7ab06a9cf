// The row semantics of a star pipeline's program, as the CPU backend's evaluator defines them:
// exact decimals in scaled 64-bit integers with overflow checks, doubles as IEEE (rounded to
// nearest, never fused), three-valued logic, a NULL's value 0. A case the kernel cannot finish
// exactly sets a bit of the thread's status and the host hands the pipeline to the CPU; the bits
// (STATUS_OVERFLOW, STATUS_DIVIDE_BY_ZERO, STATUS_BAD_CODE) come from the generated source, which
// takes them from dev.starling.gpu.pipeline.KernelStatus. `counts`: the row is alive and its
// result not NULL, so a failure matters.
#pragma once
#include "load.cuh"

__device__ __forceinline__ void flagIf(bool bad, bool counts, unsigned bit, unsigned& status) {
    if (bad && counts) {
        status |= bit;
    }
}

__device__ __forceinline__ double asDouble(long long bits) {
    return __longlong_as_double(bits);
}

__device__ __forceinline__ long long asBits(double d) {
    return __double_as_longlong(d);
}

// a + b; overflow where the result has the sign of neither operand.
__device__ __forceinline__ long long addChecked(long long a, long long b, bool counts, unsigned& status) {
    long long r = (long long)((uint64_t)a + (uint64_t)b);
    flagIf(((a ^ r) & (b ^ r)) < 0, counts, STATUS_OVERFLOW, status);
    return r;
}

// a - b; overflow where a and b differ in sign and the result differs from a.
__device__ __forceinline__ long long subtractChecked(long long a, long long b, bool counts, unsigned& status) {
    long long r = (long long)((uint64_t)a - (uint64_t)b);
    flagIf(((a ^ b) & (a ^ r)) < 0, counts, STATUS_OVERFLOW, status);
    return r;
}

// a * b; overflow where the 128-bit product's high word is not the low word's sign.
__device__ __forceinline__ long long multiplyChecked(long long a, long long b, bool counts, unsigned& status) {
    long long low = (long long)((uint64_t)a * (uint64_t)b);
    flagIf(__mul64hi(a, b) != (low >> 63), counts, STATUS_OVERFLOW, status);
    return low;
}

// |v| as unsigned, so that the magnitude of the smallest long fits.
__device__ __forceinline__ uint64_t magnitude(long long v) {
    return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

// m / d of magnitudes (d nonzero), rounded half away from zero.
__device__ __forceinline__ uint64_t quotientRounded(uint64_t m, uint64_t d) {
    uint64_t q = m / d;
    uint64_t rem = m - q * d;
    return rem >= d - rem ? q + 1 : q;
}

// v / divisor rounded half away from zero, as the CPU backend rescales decimals; the divisor is a
// power of ten the generated code writes as a literal, so the compiler divides by multiplying.
__device__ __forceinline__ long long divideRound(long long v, uint64_t divisor) {
    uint64_t q = quotientRounded(magnitude(v), divisor);
    return v < 0 ? -(long long)q : (long long)q;
}

// x * scale rounded half away from zero to a long; NaN or beyond the 64-bit range fails.
__device__ __forceinline__ long long roundToLong(long long bits, double scale, bool counts, unsigned& status) {
    double x = __dmul_rn(asDouble(bits), scale);
    double absolute = fabs(x);
    flagIf(!(absolute < 9.2e18), counts, STATUS_OVERFLOW, status);
    double whole = trunc(absolute);
    if (__dsub_rn(absolute, whole) >= 0.5) {
        whole = __dadd_rn(whole, 1.0);
    }
    long long r = __double2ll_rz(whole);
    return x < 0.0 ? -r : r;
}

// v / scale as a double (scale 1: the integer's value).
__device__ __forceinline__ long long integerToDouble(long long v, double scale) {
    double d = __ll2double_rn(v);
    return asBits(scale == 1.0 ? d : __ddiv_rn(d, scale));
}

// a / b over doubles; a zero divisor fails.
__device__ __forceinline__ long long divideDoubles(long long a, long long b, bool counts, unsigned& status) {
    flagIf(asDouble(b) == 0.0, counts, STATUS_DIVIDE_BY_ZERO, status);
    return asBits(__ddiv_rn(asDouble(a), asDouble(b)));
}

// Whether v leaves the 32-bit range (an INTEGER result).
__device__ __forceinline__ void checkInt(long long v, bool counts, unsigned& status) {
    flagIf(v != (long long)(int)v, counts, STATUS_OVERFLOW, status);
}

// Overflow when the unscaled v reaches limit (10^p) in magnitude: outside a DECIMAL(p, s).
__device__ __forceinline__ void checkDigits(long long v, long long limit, bool counts, unsigned& status) {
    flagIf(v >= limit || v <= -limit, counts, STATUS_OVERFLOW, status);
}

// -v; overflow for the one value whose negation does not fit.
__device__ __forceinline__ long long negateChecked(long long v, bool counts, unsigned& status) {
    return subtractChecked(0, v, counts, status);
}

// |v|, checked as negation is.
__device__ __forceinline__ long long absChecked(long long v, bool counts, unsigned& status) {
    return v < 0 ? negateChecked(v, counts, status) : v;
}

// Dates are days since 1970-01-01 in the proleptic Gregorian calendar. The conversions to and
// from (year, month, day) are Howard Hinnant's "days_from_civil" and "civil_from_days"
// (chrono-Compatible Low-Level Date Algorithms), as the CPU backend's DateEval computes them.
struct CivilDate {
    long long year;
    int month;
    int day;
};

__device__ __forceinline__ long long floorDivide(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

__device__ __forceinline__ CivilDate civilFromDays(long long days) {
    long long z = days + 719468;
    long long era = floorDivide(z, 146097);
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    CivilDate c;
    c.day = (int)(doy - (153 * mp + 2) / 5 + 1);
    c.month = (int)(mp < 10 ? mp + 3 : mp - 9);
    c.year = yoe + era * 400 + (c.month <= 2 ? 1 : 0);
    return c;
}

__device__ __forceinline__ long long daysFromCivil(long long year, int month, int day) {
    long long y = month <= 2 ? year - 1 : year;
    long long era = floorDivide(y, 400);
    long long yoe = y - era * 400;
    long long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

__device__ __forceinline__ long long extractYear(long long days) {
    return civilFromDays(days).year;
}

__device__ __forceinline__ long long extractQuarter(long long days) {
    return (civilFromDays(days).month + 2) / 3;
}

__device__ __forceinline__ long long extractMonth(long long days) {
    return civilFromDays(days).month;
}

__device__ __forceinline__ long long extractDay(long long days) {
    return civilFromDays(days).day;
}

__device__ __forceinline__ int monthLength(long long year, int month) {
    if (month == 2) {
        return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
    }
    return (month == 4 || month == 6 || month == 9 || month == 11) ? 30 : 31;
}

// days + months, the day of the month clamped to the new month's length (1996-01-31 + 1 month = 1996-02-29).
__device__ __forceinline__ long long addMonths(long long days, long long months) {
    CivilDate c = civilFromDays(days);
    long long total = c.year * 12 + (c.month - 1) + months;
    long long year = floorDivide(total, 12);
    int month = (int)(total - year * 12) + 1;
    int length = monthLength(year, month);
    return daysFromCivil(year, month, c.day < length ? c.day : length);
}

// (a * scale) / b rounded half away from zero, as the CPU backend divides decimals (scale: the
// power of ten that brings the quotient to the result's scale). A product beyond 64 bits fails, and
// the CPU backend, which divides through 128 bits there, answers; a zero divisor fails.
__device__ __forceinline__ long long divideRounded(long long a, long long b, long long scale, bool counts, unsigned& status) {
    flagIf(b == 0, counts, STATUS_DIVIDE_BY_ZERO, status);
    long long n = multiplyChecked(a, scale, counts, status);
    uint64_t q = quotientRounded(magnitude(n), b == 0 ? 1 : magnitude(b));
    bool negative = (n < 0) != (b < 0);
    flagIf(q > (negative ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1), counts, STATUS_OVERFLOW, status);
    return negative ? (long long)(0 - q) : (long long)q;
}

// Integer division, truncating; the smallest long divided by -1 overflows, a zero divisor fails.
__device__ __forceinline__ long long divideTruncated(long long a, long long b, bool counts, unsigned& status) {
    flagIf(b == 0, counts, STATUS_DIVIDE_BY_ZERO, status);
    if (b == 0) {
        return 0;
    }
    if (b == -1) {
        return negateChecked(a, counts, status);
    }
    return a / b;
}

// a % b with the dividend's sign (C's and Java's remainder); a zero divisor fails.
__device__ __forceinline__ long long remainderChecked(long long a, long long b, bool counts, unsigned& status) {
    flagIf(b == 0, counts, STATUS_DIVIDE_BY_ZERO, status);
    return (b == 0 || b == -1) ? 0 : a % b;
}
