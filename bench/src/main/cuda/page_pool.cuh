// A pool of fixed-size pages found by random walks over a bitmap of used bits, after Pham et al.,
// "Dynamic Buffer Management in Massively Parallel Systems: A Case on GPUs" (seed 000): no global
// free list or counter, so tens of thousands of threads asking at once do not queue on one word.
// Bit b of word w marks page 32 w + b as used; freeing a page clears its bit.
#pragma once
#include "types.cuh"

// A thread's random stream (xorshift32): cheap, and different per thread when seeded from its index.
__device__ __forceinline__ unsigned nextRandom(unsigned& state) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
}

__device__ __forceinline__ unsigned seedRandom(unsigned long long thread, unsigned salt) {
    unsigned s = (unsigned)(thread * 0x9e3779b97f4a7c15ull >> 32) ^ (salt * 0x85ebca6bu);
    return s == 0 ? 0x6d2b79f5u : s;
}

__device__ __forceinline__ unsigned readWord(const unsigned* word) {
    return *(const volatile unsigned*)word;
}

// RW-BM (section IV-A, Algorithm 2): each step reads one random word of the bitmap and takes its
// first free bit. The paper serializes a word's takers with a lock bit per word; setting the bit
// with atomicOr instead costs the same one atomic, and a thread that loses the race sees the word
// as it now is and tries its next free bit without another read. -1 after `steps` steps.
__device__ __forceinline__ long long rwbmTakePage(unsigned* used, unsigned words, unsigned& rng, unsigned steps) {
    for (unsigned step = 0; step < steps; step++) {
        unsigned w = nextRandom(rng) % words;
        unsigned bits = readWord(used + w);
        while (bits != FULL_WARP) {
            unsigned bit = 1u << (__ffs(~bits) - 1);
            unsigned before = atomicOr(used + w, bit);
            if ((before & bit) == 0) {
                return 32ll * w + __ffs(bit) - 1;
            }
            bits = before | bit;
        }
    }
    return -1;
}

// `bits` without its k lowest set bits.
__device__ __forceinline__ unsigned withoutLowest(unsigned bits, unsigned k) {
    for (unsigned i = 0; i < k; i++) {
        bits &= bits - 1;
    }
    return bits;
}

// CoRW (section IV-B, Algorithm 3): the lanes of a warp that need a page walk together. Every
// lane reads a random word and takes all its free bits at once; the pages found are handed to the
// needy lanes in lane order through shuffles (the paper's exclusive prefix sum over the finds), and
// those left over are given back. A warp's slowest lane then takes as many steps as its average.
// Every lane of the warp must call it; returns this lane's page (-1: none wanted, or none found in
// `steps` rounds).
__device__ __forceinline__ long long corwTakePage(bool wants, unsigned* used, unsigned words, unsigned& rng,
                                                  unsigned lane, unsigned steps) {
    long long mine = -1;
    unsigned needy = __ballot_sync(FULL_WARP, wants);
    for (unsigned step = 0; needy != 0 && step < steps; step++) {
        unsigned w = nextRandom(rng) % words;
        unsigned free = ~readWord(used + w);
        unsigned found = free == 0 ? 0 : free & ~atomicOr(used + w, free);
        unsigned count = __popc(found);
        unsigned upTo = count;
        for (unsigned d = 1; d < 32; d <<= 1) {
            unsigned t = __shfl_up_sync(FULL_WARP, upTo, d);
            if (lane >= d) {
                upTo += t;
            }
        }
        unsigned before = upTo - count;
        unsigned wanted = __popc(needy);
        bool needs = (needy >> lane) & 1u;
        unsigned rank = __popc(needy & ((1u << lane) - 1));
        unsigned contributors = __ballot_sync(FULL_WARP, count != 0);
        while (contributors != 0) {
            unsigned c = __ffs(contributors) - 1;
            contributors &= contributors - 1;
            unsigned cFound = __shfl_sync(FULL_WARP, found, c);
            unsigned cBefore = __shfl_sync(FULL_WARP, before, c);
            unsigned cWord = __shfl_sync(FULL_WARP, w, c);
            if (needs && rank >= cBefore && rank < cBefore + __popc(cFound)) {
                mine = 32ll * cWord + __ffs(withoutLowest(cFound, rank - cBefore)) - 1;
            }
        }
        // A lane's finds past the warp's need go back: those ranked at or past `wanted`.
        if (count != 0 && before + count > wanted) {
            atomicAnd(used + w, ~withoutLowest(found, before >= wanted ? 0 : wanted - before));
        }
        unsigned total = __shfl_sync(FULL_WARP, upTo, 31);
        unsigned served = total < wanted ? total : wanted;
        // the first `served` needy lanes in lane order have their page
        needy = withoutLowest(needy, served);
    }
    return mine;
}

// One page for the whole warp, every lane looking at once (a CoRW step with one taker): each lane
// reads a random word, and the first lane that saw a free bit tries to take it. For a warp that
// works as one, as the slab hash's warps do (seed 001, section V: SlabAlloc serves such requests
// one at a time per warp). Every lane must call it; all get the page, or -1 after `steps` rounds.
__device__ __forceinline__ long long warpTakePage(unsigned* used, unsigned words, unsigned& rng, unsigned lane,
                                                  unsigned steps) {
    for (unsigned step = 0; step < steps; step++) {
        unsigned w = nextRandom(rng) % words;
        unsigned bits = readWord(used + w);
        unsigned holders = __ballot_sync(FULL_WARP, bits != FULL_WARP);
        while (holders != 0) {
            unsigned taker = __ffs(holders) - 1;
            long long page = -1;
            if (lane == taker) {
                unsigned bit = 1u << (__ffs(~bits) - 1);
                unsigned before = atomicOr(used + w, bit);
                bits = before | bit;
                page = (before & bit) == 0 ? 32ll * w + __ffs(bit) - 1 : -1;
            }
            page = __shfl_sync(FULL_WARP, page, taker);
            if (page >= 0) {
                return page;
            }
            holders = __ballot_sync(FULL_WARP, bits != FULL_WARP);
        }
    }
    return -1;
}

__device__ __forceinline__ void givePage(unsigned* used, long long page) {
    atomicAnd(used + (page >> 5), ~(1u << (page & 31)));
}
