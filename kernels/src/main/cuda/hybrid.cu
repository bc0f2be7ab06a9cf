// Kernels of the hybrid hash table (probe.cuh): a table whose first `split` slots live in device
// memory and the rest in pinned host memory mapped into the device's address space, read over the
// link.
#include "probe.cuh"
#include "fold.cuh"

// Counts into *hits how many of keys[0..n) the table holds: a grid-stride loop, one atomic per warp.
extern "C" __global__ void probe_split(const HashSlot* devicePart, const HashSlot* hostPart, uint64_t split, int shift,
                                       const long long* keys, int64_t n, unsigned long long* hits) {
    uint64_t found = 0;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        found += findRow(devicePart, hostPart, split, shift, keys[i]) >= 0 ? 1 : 0;
    }
    found = warpCount(found);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(hits, (unsigned long long)found);
    }
}
