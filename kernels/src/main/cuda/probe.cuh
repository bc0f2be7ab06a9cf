// How a star pipeline's rows find their dimension rows: dense dimensions by code (in device or
// shared memory), hashed ones in an open-addressing table with linear probing over HashSlots
// (structs.cuh: key, row; a negative row marks an empty slot) that DimensionHashTable builds on the
// host, whose slots past `split` may live in pinned host memory (a hybrid table, read over the link).
#pragma once
#include "hash.cuh"
#include "structs.cuh"
#include "load.cuh"

// One slot, read in one 16-byte load through the read-only path.
__device__ __forceinline__ HashSlot loadSlot(const HashSlot* p) {
    longlong2 v = __ldg((const longlong2*)p);
    return HashSlot{v.x, v.y};
}

// The slot at index s: in the device part below the split, else in the host part.
__device__ __forceinline__ HashSlot slotAt(const HashSlot* devicePart, const HashSlot* hostPart, uint64_t split,
                                           uint64_t s) {
    return loadSlot(s < split ? devicePart + s : hostPart + (s - split));
}

// The row of `key` in a table of 2^(64 - shift) slots, the first `split` of them at `devicePart`
// and the rest at `hostPart`; -1 when the key is not there.
__device__ __forceinline__ long long findRow(const HashSlot* devicePart, const HashSlot* hostPart, uint64_t split,
                                             int shift, long long key) {
    const uint64_t mask = ~0ull >> shift;
    for (uint64_t s = homeSlot(key, shift); ; s = (s + 1) & mask) {
        HashSlot e = slotAt(devicePart, hostPart, split, s);
        if (e.row < 0 || e.key == key) {
            return e.row;
        }
    }
}

// The same over a table wholly in device memory.
__device__ __forceinline__ long long findRow(const HashSlot* table, int shift, long long key) {
    const uint64_t mask = ~0ull >> shift;
    for (uint64_t s = homeSlot(key, shift); ; s = (s + 1) & mask) {
        HashSlot e = loadSlot(table + s);
        if (e.row < 0 || e.key == key) {
            return e.row;
        }
    }
}

// A row's group contribution from its dimension row `index`, in device or shared memory: -1 (no
// row, or one the dimension's filters rejected) unless `alive`.
__device__ __forceinline__ int contributionAt(const int32_t* contributions, long long index, bool alive) {
    return loadInt(contributions, index, alive, -1);
}

// The same from 64-bit contributions (a layout whose dimension digits pass 2^31 ids).
__device__ __forceinline__ long long contributionAt(const int64_t* contributions, long long index, bool alive) {
    long long v = -1;
    asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.global.nc.s64 %0, [%1]; }"
        : "+l"(v) : "l"(contributions + index), "r"((int)alive));
    return v;
}

__device__ __forceinline__ int stagedContributionAt(const int32_t* staged, long long index, bool alive) {
    int v = -1;
    asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.shared.s32 %0, [%1]; }"
        : "+r"(v) : "r"((unsigned)__cvta_generic_to_shared(staged + index)), "r"((int)alive));
    return v;
}
