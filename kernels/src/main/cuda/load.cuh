// Read-only loads of column values and flags, predicated on whether the row is still alive.
#pragma once
#include "types.cuh"

// Read-only loads of a column value at row i where `guard` holds, else `otherwise`. The load is
// predicated, not branched around: a thread's loads for all its rows then issue back to back and
// are in flight together, which is what hides the memory latency (the compiler would otherwise
// wrap each in a branch).
__device__ __forceinline__ int loadInt(const int32_t* column, long long i, bool guard, int otherwise) {
    int v = otherwise;
    asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.global.nc.s32 %0, [%1]; }"
        : "+r"(v) : "l"(column + i), "r"((int)guard));
    return v;
}

// The same, widened to 64 bits, 0 where `guard` does not hold.
__device__ __forceinline__ long long loadValue(const int8_t* column, long long i, bool guard) {
    int v = 0;
    asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.global.nc.s8 %0, [%1]; }"
        : "+r"(v) : "l"(column + i), "r"((int)guard));
    return v;
}

__device__ __forceinline__ long long loadValue(const int32_t* column, long long i, bool guard) {
    return loadInt(column, i, guard, 0);
}

__device__ __forceinline__ long long loadValue(const int64_t* column, long long i, bool guard) {
    long long v = 0;
    asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.global.nc.s64 %0, [%1]; }"
        : "+l"(v) : "l"(column + i), "r"((int)guard));
    return v;
}

__device__ __forceinline__ long long loadValue(const uint32_t* column, long long i, bool guard) {
    return (uint32_t)loadInt((const int32_t*)column, i, guard, 0);
}

__device__ __forceinline__ bool loadNull(const uint8_t* nulls, long long i, bool guard) {
    unsigned v = 0;
    asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.global.nc.u8 %0, [%1]; }"
        : "+r"(v) : "l"(nulls + i), "r"((int)guard));
    return v != 0;
}
