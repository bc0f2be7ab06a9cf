// Places for a warp's surviving items in an output whose length is not known beforehand.
#pragma once
#include "types.cuh"

// An output place for a surviving item: the warp's survivors take consecutive places, reserved
// with one atomic on `counter` by the first lane. Every lane must call it.
__device__ __forceinline__ long long reservePlace(bool alive, unsigned long long* counter, unsigned lane) {
    unsigned survivors = __ballot_sync(FULL_WARP, alive);
    unsigned long long base = 0;
    if (lane == 0 && survivors != 0) {
        base = atomicAdd(counter, (unsigned long long)__popc(survivors));
    }
    base = __shfl_sync(FULL_WARP, base, 0);
    return (long long)(base + __popc(survivors & ((1u << lane) - 1)));
}
