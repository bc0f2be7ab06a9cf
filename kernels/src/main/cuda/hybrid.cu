// Kernels of the hybrid hash table: a table of 16-byte slots (key, row; a negative row marks an
// empty slot) whose first `split` slots live in device memory and the rest in pinned host memory
// mapped into the device's address space, read over the link. Linear probing from the key's home
// slot (Fibonacci hashing: (key * 0x9E3779B97F4A7C15) >> shift), as the engine's hash joins do.
#include <stdint.h>

struct Slot {
    long long key;
    long long row;
};

__device__ __forceinline__ uint64_t warpSum(uint64_t s) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, offset);
    }
    return s;
}

// The slot at index s: in the device part below the split, else in the host part.
__device__ __forceinline__ Slot slotAt(const Slot* devicePart, const Slot* hostPart, uint64_t split, uint64_t s) {
    return s < split ? devicePart[s] : hostPart[s - split];
}

// Whether `key` is in the table.
__device__ __forceinline__ bool probe(const Slot* devicePart, const Slot* hostPart, uint64_t split, int shift,
                                      uint64_t mask, long long key) {
    uint64_t s = ((uint64_t)key * 0x9E3779B97F4A7C15ull) >> shift;
    for (;;) {
        Slot e = slotAt(devicePart, hostPart, split, s);
        if (e.row < 0) {
            return false;
        }
        if (e.key == key) {
            return true;
        }
        s = (s + 1) & mask;
    }
}

// Counts into *hits how many of keys[0..n) the table holds: a grid-stride loop, one atomic per warp.
extern "C" __global__ void probe_split(const Slot* devicePart, const Slot* hostPart, uint64_t split, int shift,
                                       const long long* keys, int64_t n, unsigned long long* hits) {
    const uint64_t mask = (shift == 0 ? ~0ull : (~0ull >> shift));
    uint64_t found = 0;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        found += probe(devicePart, hostPart, split, shift, mask, keys[i]) ? 1 : 0;
    }
    found = warpSum(found);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(hits, (unsigned long long)found);
    }
}
