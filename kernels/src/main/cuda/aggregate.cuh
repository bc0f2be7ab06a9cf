// Aggregate slots: every slot holds two 64-bit words per group at acc[(slot * groups + group) * 2].
// Integer sums are 128-bit two's complement (low word, high word); MIN/MAX keep the value in the
// low word. The generated pipeline kernels fold into words set up here.
#pragma once
#include "pipeline.cuh"

__device__ __forceinline__ uint64_t identityOf(int kind) {
    switch (kind) {
        case AGG_MIN_I: return (uint64_t)INT64_MAX;
        case AGG_MAX_I: return (uint64_t)INT64_MIN;
        case AGG_MIN_F: return 0x7ff0000000000000ull;  // +infinity
        case AGG_MAX_F: return 0xfff0000000000000ull;  // -infinity
        default: return 0;
    }
}

__device__ void initSlots(uint64_t* acc, const AggSlot* slots, int nslots, int groups, int64_t from, int64_t step) {
    int64_t total = (int64_t)nslots * groups;
    for (int64_t i = from; i < total; i += step) {
        acc[i * 2] = identityOf(slots[i / groups].kind);
        acc[i * 2 + 1] = 0;
    }
}
