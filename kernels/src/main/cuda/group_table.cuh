// Groups by hash: an open-addressing table of 64-bit group ids in device memory, linear probing
// from the id's home slot (hash.cuh), a slot claimed by atomicCAS on its key word. The aggregate
// states of slot s sit where a dense group s's would, so the folds of fold.cuh serve both. A key
// word never holds EMPTY_GROUP as an id: ids are below 2^63.
#pragma once
#include "hash.cuh"

#define EMPTY_GROUP 0xffffffffffffffffull

// The slot of group `id` in a table of 2^(64 - shift) key words, claimed when the id is new; -1
// when the first `maxProbes` slots from its home hold other ids: the table, sized for the groups
// the optimizer expected, holds too many (the run is redone with a table for all there can be), or
// every slot is taken.
__device__ __forceinline__ long long groupSlot(unsigned long long* keys, int shift, long long id, uint64_t maxProbes) {
    bool claimed;
    return claimSlot<1>(keys, shift, (unsigned long long)id, EMPTY_GROUP, &claimed, maxProbes);
}
