// Aggregate slots: every slot holds two 64-bit words per group at acc[(slot * groups + group) * 2].
// Integer sums are exact 128-bit two's complement (low word, high word) so no partial sum can wrap;
// the host checks that each total fits 64 bits. MIN/MAX keep the value in the low word.
#pragma once
#include <float.h>
#include "pipeline.cuh"
#include "program.cuh"

__device__ __forceinline__ uint64_t* slotWords(uint64_t* acc, int slot, int groups, int64_t group) {
    return acc + ((int64_t)slot * groups + group) * 2;
}

__device__ __forceinline__ uint64_t identityOf(int kind) {
    switch (kind) {
        case AGG_MIN_I: return (uint64_t)INT64_MAX;
        case AGG_MAX_I: return (uint64_t)INT64_MIN;
        case AGG_MIN_F: return (uint64_t)__double_as_longlong(__longlong_as_double(0x7ff0000000000000LL));
        case AGG_MAX_F: return (uint64_t)__double_as_longlong(-__longlong_as_double(0x7ff0000000000000LL));
        default: return 0;
    }
}

__device__ void initSlots(uint64_t* acc, const AggSlot* slots, int nslots, int groups, int64_t from, int64_t step) {
    int64_t total = (int64_t)nslots * groups;
    for (int64_t i = from; i < total; i += step) {
        acc[i * 2] = identityOf(slots[i / groups].kind);
        acc[i * 2 + 1] = 0;
    }
}

// Adds the 128-bit value (lo, hi) to the 128-bit total at w.
__device__ __forceinline__ void addWide(uint64_t* w, uint64_t lo, int64_t hi) {
    uint64_t old = atomicAdd((unsigned long long*)w, (unsigned long long)lo);
    int64_t high = hi + ((old + lo) < old ? 1 : 0);
    if (high != 0) atomicAdd((unsigned long long*)(w + 1), (unsigned long long)high);
}

__device__ __forceinline__ void minDouble(uint64_t* w, double v) {
    unsigned long long old = *(volatile unsigned long long*)w;
    while (v < __longlong_as_double(old)) {
        unsigned long long seen = atomicCAS((unsigned long long*)w, old, __double_as_longlong(v));
        if (seen == old) break;
        old = seen;
    }
}

__device__ __forceinline__ void maxDouble(uint64_t* w, double v) {
    unsigned long long old = *(volatile unsigned long long*)w;
    while (v > __longlong_as_double(old)) {
        unsigned long long seen = atomicCAS((unsigned long long*)w, old, __double_as_longlong(v));
        if (seen == old) break;
        old = seen;
    }
}

// Folds a partial state (w0, w1) of a slot of `kind` into the slot words at w.
__device__ __forceinline__ void foldPartial(uint64_t* w, int kind, uint64_t w0, uint64_t w1) {
    switch (kind) {
        case AGG_COUNT: atomicAdd((unsigned long long*)w, (unsigned long long)w0); break;
        case AGG_SUM_I: addWide(w, w0, (int64_t)w1); break;
        case AGG_SUM_F: atomicAdd((double*)w, __longlong_as_double(w0)); break;
        case AGG_MIN_I: atomicMin((long long*)w, (long long)w0); break;
        case AGG_MAX_I: atomicMax((long long*)w, (long long)w0); break;
        case AGG_MIN_F: minDouble(w, __longlong_as_double(w0)); break;
        case AGG_MAX_F: maxDouble(w, __longlong_as_double(w0)); break;
    }
}

// A row's partial state for one slot, or the slot's identity when the row does not count for it.
__device__ __forceinline__ void rowPartial(const AggSlot& s, const Registers& r, bool counts, uint64_t& w0, uint64_t& w1) {
    counts = counts && (s.filter < 0 || r.isTrue(s.filter)) && (s.reg < 0 || !r.isNull(s.reg));
    w1 = 0;
    if (!counts) {
        w0 = identityOf(s.kind);
        return;
    }
    switch (s.kind) {
        case AGG_COUNT: w0 = 1; break;
        case AGG_SUM_I: w0 = (uint64_t)r.v[s.reg]; w1 = r.v[s.reg] < 0 ? ~0ull : 0; break;
        default: w0 = (uint64_t)r.v[s.reg]; break;
    }
}

__device__ void foldRow(uint64_t* acc, int groups, int64_t group, const AggSlot* slots, int nslots, const Registers& r) {
    for (int s = 0; s < nslots; s++) {
        const AggSlot slot = slots[s];
        uint64_t w0, w1;
        rowPartial(slot, r, true, w0, w1);
        if (w0 != identityOf(slot.kind) || w1 != 0) {
            foldPartial(slotWords(acc, s, groups, group), slot.kind, w0, w1);
        }
    }
}

// Combines two partial states of one slot.
__device__ __forceinline__ void combine(int kind, uint64_t& w0, uint64_t& w1, uint64_t o0, uint64_t o1) {
    switch (kind) {
        case AGG_COUNT: w0 += o0; break;
        case AGG_SUM_I: {
            uint64_t lo = w0 + o0;
            w1 = w1 + o1 + (lo < w0 ? 1 : 0);
            w0 = lo;
            break;
        }
        case AGG_SUM_F: w0 = __double_as_longlong(__longlong_as_double(w0) + __longlong_as_double(o0)); break;
        case AGG_MIN_I: w0 = (int64_t)o0 < (int64_t)w0 ? o0 : w0; break;
        case AGG_MAX_I: w0 = (int64_t)o0 > (int64_t)w0 ? o0 : w0; break;
        case AGG_MIN_F: w0 = __longlong_as_double(o0) < __longlong_as_double(w0) ? o0 : w0; break;
        case AGG_MAX_F: w0 = __longlong_as_double(o0) > __longlong_as_double(w0) ? o0 : w0; break;
    }
}

// One group for the whole warp (a scalar aggregate): the warp reduces each slot by butterfly
// exchange and its first lane folds the result, one atomic per warp instead of one per row.
// Every lane of the warp must call it. (Per-thread partials folded once at the end measured
// twice as slow on the H100: their local memory traffic reaches L2.)
__device__ void foldWarp(uint64_t* acc, const AggSlot* slots, int nslots, const Registers& r, bool counts) {
    if (!__any_sync(0xffffffffu, counts)) return;  // most warps of a selective query keep no row
    const int lane = threadIdx.x & 31;
    for (int s = 0; s < nslots; s++) {
        const AggSlot slot = slots[s];
        uint64_t w0, w1;
        rowPartial(slot, r, counts, w0, w1);
        for (int offset = 16; offset > 0; offset >>= 1) {
            uint64_t o0 = __shfl_xor_sync(0xffffffffu, w0, offset);
            uint64_t o1 = __shfl_xor_sync(0xffffffffu, w1, offset);
            combine(slot.kind, w0, w1, o0, o1);
        }
        if (lane == 0 && (w0 != identityOf(slot.kind) || w1 != 0)) {
            foldPartial(slotWords(acc, s, 1, 0), slot.kind, w0, w1);
        }
    }
}

// Folds a block's shared-memory slots into the global ones; slot 0 counts rows, so a group
// without rows is skipped.
__device__ void mergeBlock(uint64_t* global, const uint64_t* shared, const AggSlot* slots, int nslots, int groups) {
    for (int g = threadIdx.x; g < groups; g += blockDim.x) {
        if (shared[g * 2] == 0) continue;
        for (int s = 0; s < nslots; s++) {
            const uint64_t* w = shared + ((int64_t)s * groups + g) * 2;
            foldPartial(slotWords(global, s, groups, g), slots[s].kind, w[0], w[1]);
        }
    }
}
