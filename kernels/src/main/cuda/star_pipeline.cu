// Sets aggregate states before a star pipeline kernel folds into them (`slots` arrays of `groups`
// 16-byte states, each slot's state starting as (its identity, 0)), and compacts them after it.
#include "fold.cuh"
#include "group_filter.cuh"
#include "place.cuh"

extern "C" __global__ void init_accumulators(uint64_t* acc, const uint64_t* identities, int slots, int groups) {
    int64_t total = (int64_t)slots * groups;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        initState(acc + i * 2, identities[i / groups]);
    }
}

// Writes each group with rows (its slot 0 counts them, so a group without is empty) that passes
// the `terms` of a HAVING condition as one record: its id, from `keys` (a hash table's key words)
// or its index when `keys` is null, then each slot's two words. Counts every such group at
// `count`, writing those below `room` (the caller runs it again with room for all when they were
// more). What comes back over the link is then the groups, not the table.
extern "C" __global__ void compact_groups(const uint64_t* acc, long long groups, int slots, const uint64_t* keys,
                                          const GroupTerm* terms, int termCount, unsigned long long* count,
                                          uint64_t* out, long long room) {
    const unsigned lane = threadIdx.x & 31;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < groups; base += (long long)gridDim.x * blockDim.x) {
        long long g = base + threadIdx.x;
        bool present = g < groups && acc[2 * g] != 0 && passesGroupFilter(acc, groups, g, terms, termCount);
        long long at = reservePlace(present, count, lane);
        if (present && at < room) {
            uint64_t* record = out + at * (1 + 2 * slots);
            record[0] = keys == nullptr ? (uint64_t)g : keys[g];
            for (int s = 0; s < slots; s++) {
                record[1 + 2 * s] = acc[(s * groups + g) * 2];
                record[2 + 2 * s] = acc[(s * groups + g) * 2 + 1];
            }
        }
    }
}
