// Sets aggregate states before a star pipeline kernel folds into them: `slots` arrays of `groups`
// 16-byte states, each slot's state starting as (its identity, 0).
#include "fold.cuh"

extern "C" __global__ void init_accumulators(uint64_t* acc, const uint64_t* identities, int slots, int groups) {
    int64_t total = (int64_t)slots * groups;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        initState(acc + i * 2, identities[i / groups]);
    }
}
