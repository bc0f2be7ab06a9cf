// Groups by hash: an open-addressing table of 64-bit group ids in device memory, linear probing
// from the id's home slot (hash.cuh), a slot claimed by atomicCAS on its key word. The aggregate
// states of slot s sit where a dense group s's would, so the folds of fold.cuh serve both. A key
// word never holds EMPTY_GROUP as an id: ids are below 2^63.
#pragma once
#include "hash.cuh"

#define EMPTY_GROUP 0xffffffffffffffffull

// The slot of group `id` in a table of 2^(64 - shift) key words, claimed when the id is new; -1
// when every slot holds another id (the table was sized too small).
__device__ __forceinline__ long long groupSlot(unsigned long long* keys, int shift, long long id) {
    const uint64_t mask = ~0ull >> shift;
    uint64_t s = homeSlot(id, shift);
    for (uint64_t probes = 0; probes <= mask; probes++, s = (s + 1) & mask) {
        unsigned long long seen = *(volatile unsigned long long*)(keys + s);
        if (seen == EMPTY_GROUP) {
            seen = atomicCAS(keys + s, EMPTY_GROUP, (unsigned long long)id);
        }
        if (seen == EMPTY_GROUP || seen == (unsigned long long)id) {
            return (long long)s;
        }
    }
    return -1;
}
