// Groups by hash in slab lists, after Ashkiani, Farach-Colton and Owens, "A Dynamic Hash Table for
// the GPU" (seed 001): a bucket is a list of 256-byte slabs, 31 group ids and the next slab's index
// each, read by a whole warp at once (lane l holds word l; lane 31 the link). Its warps share work
// (section IV-A, WCWS): the lanes that have a group id queue up and the warp serves them one at a
// time. New slabs come from a page pool (page_pool.cuh, seed 000's random walk standing in for
// SlabAlloc), so the table grows while the kernel runs instead of failing when its first guess was
// short. Group g of slab s keeps its states at index 31 s + g.
#pragma once
#include "hash.cuh"
#include "page_pool.cuh"

#define SLAB_WORDS 32
#define SLAB_KEYS 31
#define SLAB_EMPTY 0xffffffffffffffffull

__device__ __forceinline__ unsigned long long readSlabWord(const unsigned long long* word) {
    return *(const volatile unsigned long long*)word;
}

// A fresh slab's words are EMPTY and its groups' states their identities before any other warp
// can reach it: the fence orders these writes before the link that publishes the slab.
__device__ __forceinline__ void openSlab(unsigned long long* slabs, unsigned long long* states, int stateWords,
                                         unsigned long long slab, unsigned lane) {
    slabs[slab * SLAB_WORDS + lane] = SLAB_EMPTY;
    if (lane < SLAB_KEYS) {
        for (int w = 0; w < stateWords; w++) {
            states[(slab * SLAB_KEYS + lane) * stateWords + w] = 0;
        }
    }
    __threadfence();
}

// The state index of each active lane's group `id` (ids below 2^63), its slot claimed when new;
// -1 for an inactive lane, -2 when the page pool had no slab left. Buckets are the first
// 2^(64 - shift) slabs; the pool's page p is slab `buckets + p`. Every lane must call it.
__device__ __forceinline__ long long slabGroupSlot(bool active, unsigned long long id, unsigned long long* slabs,
                                                   int shift, unsigned* used, unsigned words,
                                                   unsigned long long* states, int stateWords, unsigned& rng,
                                                   unsigned lane) {
    const unsigned long long buckets = 1ull << (64 - shift);
    long long mine = -1;
    unsigned queue = __ballot_sync(FULL_WARP, active);
    while (queue != 0) {
        unsigned source = __ffs(queue) - 1;
        queue &= queue - 1;
        unsigned long long key = __shfl_sync(FULL_WARP, id, source);
        unsigned long long slab = homeSlot((long long)key, shift);
        long long found = -1;
        while (found == -1) {
            unsigned long long word = readSlabWord(slabs + slab * SLAB_WORDS + lane);
            unsigned hit = __ballot_sync(FULL_WARP, lane < SLAB_KEYS && word == key);
            if (hit != 0) {
                found = (long long)(slab * SLAB_KEYS + __ffs(hit) - 1);
                break;
            }
            unsigned empty = __ballot_sync(FULL_WARP, lane < SLAB_KEYS && word == SLAB_EMPTY);
            if (empty != 0) {
                // keys fill a slab's words in order and stay: the first empty word is the only
                // place this key can go, so a lost race is followed by a fresh read of the slab
                unsigned at = __ffs(empty) - 1;
                unsigned long long before = 0;
                if (lane == source) {
                    before = atomicCAS(slabs + slab * SLAB_WORDS + at, SLAB_EMPTY, key);
                }
                before = __shfl_sync(FULL_WARP, before, source);
                if (before == SLAB_EMPTY || before == key) {
                    found = (long long)(slab * SLAB_KEYS + at);
                }
                continue;
            }
            unsigned long long next = __shfl_sync(FULL_WARP, word, SLAB_KEYS);
            if (next == SLAB_EMPTY) {
                long long page = warpTakePage(used, words, rng, lane, 64);
                if (page < 0) {
                    found = -2;
                    break;
                }
                unsigned long long fresh = buckets + (unsigned long long)page;
                openSlab(slabs, states, stateWords, fresh, lane);
                unsigned long long linked = 0;
                if (lane == source) {
                    linked = atomicCAS(slabs + slab * SLAB_WORDS + SLAB_KEYS, SLAB_EMPTY, fresh);
                }
                linked = __shfl_sync(FULL_WARP, linked, source);
                if (linked != SLAB_EMPTY) {
                    // another warp linked its slab first: follow that one, and give ours back
                    if (lane == source) {
                        givePage(used, page);
                    }
                    next = linked;
                } else {
                    next = fresh;
                }
            }
            slab = next;
        }
        if (lane == source) {
            mine = found;
        }
    }
    return mine;
}
