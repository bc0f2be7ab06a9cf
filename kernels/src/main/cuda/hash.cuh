// The engine's hash of a 64-bit key (Fibonacci hashing): the GPU's tables are laid out with it on
// the host and probed with it here. HASH_MULTIPLIER comes from the compiler's command line, from
// dev.starling.storage.Hashing, the one definition of it.
#pragma once
#include "types.cuh"

__device__ __forceinline__ uint64_t hashOf(long long key) {
    return (uint64_t)key * HASH_MULTIPLIER;
}

// A key's home slot in a table of 2^(64 - shift) slots.
__device__ __forceinline__ uint64_t homeSlot(long long key, int shift) {
    return hashOf(key) >> shift;
}
