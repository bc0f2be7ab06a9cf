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

// The slot of `key` in an open-addressing table of 2^(64 - shift) slots whose key words lie
// `Stride` words apart from `keys` (`empty` marking a free one), linear probing from the key's home
// slot; a free slot is claimed by atomicCAS on its key word, and *claimed says whether this call
// claimed it (else the key was there). -1 when the first `maxProbes` slots (every slot, by
// default) hold other keys.
template <int Stride>
__device__ __forceinline__ long long claimSlot(unsigned long long* keys, int shift, unsigned long long key,
                                               unsigned long long empty, bool* claimed,
                                               uint64_t maxProbes = ~0ull) {
    const uint64_t mask = ~0ull >> shift;
    uint64_t s = homeSlot((long long)key, shift);
    for (uint64_t probes = 0; probes <= mask && probes < maxProbes; probes++, s = (s + 1) & mask) {
        unsigned long long* word = keys + s * Stride;
        unsigned long long seen = *(volatile unsigned long long*)word;
        if (seen == empty) {
            seen = atomicCAS(word, empty, key);
        }
        if (seen == empty || seen == key) {
            *claimed = seen == empty;
            return (long long)s;
        }
    }
    *claimed = false;
    return -1;
}
