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

// v / divisor rounded half away from zero, as the CPU backend rescales decimals; the divisor is a
// power of ten the generated code writes as a literal, so the compiler divides by multiplying.
__device__ __forceinline__ long long divideRound(long long v, uint64_t divisor) {
    uint64_t n = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    uint64_t q = n / divisor;
    uint64_t rem = n - q * divisor;
    // rem < divisor <= 10^18, so 2 rem fits
    if (2 * rem >= divisor) {
        q++;
    }
    return v < 0 ? -(long long)q : (long long)q;
}

// x * scale rounded half away from zero to a long; NaN or beyond the 64-bit range fails.
__device__ __forceinline__ long long roundToLong(long long bits, double scale, bool counts, unsigned& status) {
    double x = __dmul_rn(asDouble(bits), scale);
    double magnitude = fabs(x);
    flagIf(!(magnitude < 9.2e18), counts, STATUS_OVERFLOW, status);
    double whole = trunc(magnitude);
    if (__dsub_rn(magnitude, whole) >= 0.5) {
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
