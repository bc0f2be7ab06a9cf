// The (group, value) pairs a DISTINCT aggregate has seen, so that a row folds only when it brings
// its group a value the group has not had: an open-addressing table of 16-byte entries (the group
// word, then the value word), linear probing from the pair's home slot. Two words cannot be
// claimed by one atomic, so a thread claims a free entry by swapping its group word from
// EMPTY_PAIR to WRITING_PAIR, writes the value, and only then publishes the group; a thread that
// meets WRITING_PAIR waits for the group (Volta's independent thread scheduling lets the writer
// finish even in the same warp). Group ids are below 2^63, so neither marker is one.
#pragma once
#include "hash.cuh"

#define EMPTY_PAIR 0xffffffffffffffffull
#define WRITING_PAIR 0xfffffffffffffffeull
// Spreads groups apart before the pair is hashed as one key: an odd constant (2^64 / golden ratio).
#define PAIR_MIX 0x9e3779b97f4a7c15ull

// A double's bits as DISTINCT compares them: -0.0 is 0.0 and every NaN one NaN, as on the CPU.
__device__ __forceinline__ long long distinctDoubleBits(long long bits) {
    double d = __longlong_as_double(bits);
    return d == 0.0 ? 0ll : isnan(d) ? 0x7ff8000000000000ll : bits;
}

// 1 when the pair (group, value) is new to the set at `entries` (2^(64 - shift) of them) and this
// call added it; 0 when it was there; -1 when every entry holds another pair (sized too small).
__device__ __forceinline__ int addPair(unsigned long long* entries, int shift, long long group, long long value) {
    const uint64_t mask = ~0ull >> shift;
    uint64_t s = homeSlot((long long)((uint64_t)value + (uint64_t)group * PAIR_MIX), shift);
    for (uint64_t probes = 0; probes <= mask; probes++, s = (s + 1) & mask) {
        unsigned long long* entry = entries + 2 * s;
        unsigned long long seen = *(volatile unsigned long long*)entry;
        if (seen == EMPTY_PAIR) {
            seen = atomicCAS(entry, EMPTY_PAIR, WRITING_PAIR);
            if (seen == EMPTY_PAIR) {
                *(volatile unsigned long long*)(entry + 1) = (unsigned long long)value;
                __threadfence();
                atomicExch(entry, (unsigned long long)group);
                return 1;
            }
        }
        while (seen == WRITING_PAIR) {
            seen = *(volatile unsigned long long*)entry;
        }
        if (seen == (unsigned long long)group) {
            // the value was written before the group was published
            __threadfence();
            if (*(volatile unsigned long long*)(entry + 1) == (unsigned long long)value) {
                return 0;
            }
        }
    }
    return -1;
}
