// The fixed parts of a star pipeline kernel. The kernel itself is generated per pipeline shape
// (dev.starling.gpu.pipeline.StarKernelSource) and compiled at run time: its program's values
// stay in registers, every fact column is read once, and only aggregates or surviving rows reach
// memory. It composes the functions of these headers.
#pragma once
#include "row.cuh"
#include "probe.cuh"
#include "fold.cuh"
#include "group_table.cuh"
#include "distinct_set.cuh"
#include "place.cuh"
#include "order_key.cuh"

// Copies a dense dimension's `range` group contributions into the block's shared memory.
__device__ __forceinline__ void stageContributions(int32_t* staged, const int32_t* contributions, long long range) {
    for (long long c = threadIdx.x; c < range; c += blockDim.x) {
        staged[c] = __ldg(contributions + c);
    }
}

// Fills the `entries` of a read clone layout's table: entry e holds the contribution of the code
// the clone map puts there, -1 (no row) for a hole or the NULL code, which no probe reaches.
__device__ __forceinline__ void stageClones(int32_t* staged, const int32_t* contributions, const int32_t* map,
                                            long long entries, long long range) {
    for (long long e = threadIdx.x; e < entries; e += blockDim.x) {
        long long code = __ldg(map + e);
        staged[e] = (uint64_t)code < (uint64_t)range ? __ldg(contributions + code) : -1;
    }
}
