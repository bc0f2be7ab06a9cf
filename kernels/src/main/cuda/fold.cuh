// Aggregate states. Every slot owns two 64-bit words per group: integer sums are exact 128-bit
// two's complement (low word, high word) so no partial sum can wrap, and the host checks that
// each total fits 64 bits; counts, double sums, MIN and MAX use the low word. The folds below are
// atomics on words in shared or global memory; the warp reductions combine each lane's partial
// by butterfly exchange, every lane ending with the warp's total.
#pragma once
#include "types.cuh"

// (low, high) += (x, xHigh) as 128-bit integers.
__device__ __forceinline__ void add128(uint64_t& low, uint64_t& high, uint64_t x, uint64_t xHigh) {
    low += x;
    high += xHigh + (low < x ? 1 : 0);
}

__device__ __forceinline__ uint64_t signWord(long long v) {
    return (uint64_t)(v >> 63);
}

__device__ __forceinline__ void foldCount(uint64_t* at, uint64_t n) {
    atomicAdd((unsigned long long*)at, (unsigned long long)n);
}

// Adds the 128-bit (low, high) to the words at `at`: the low word atomically, then its carry and
// the high word, when not zero.
__device__ __forceinline__ void foldSum(uint64_t* at, uint64_t low, uint64_t high) {
    uint64_t old = atomicAdd((unsigned long long*)at, (unsigned long long)low);
    uint64_t up = high + (old + low < old ? 1 : 0);
    if (up != 0) {
        atomicAdd((unsigned long long*)(at + 1), (unsigned long long)up);
    }
}

__device__ __forceinline__ void foldSumDouble(uint64_t* at, long long bits) {
    atomicAdd((double*)at, __longlong_as_double(bits));
}

__device__ __forceinline__ void foldMin(uint64_t* at, long long v) {
    atomicMin((long long*)at, v);
}

__device__ __forceinline__ void foldMax(uint64_t* at, long long v) {
    atomicMax((long long*)at, v);
}

// Doubles have no atomic MIN/MAX: swap while the value still improves on what the word holds (a
// NaN never does).
template <bool Min>
__device__ __forceinline__ void foldExtremeDouble(uint64_t* at, long long bits) {
    double v = __longlong_as_double(bits);
    unsigned long long old = *(volatile unsigned long long*)at;
    while (Min ? v < __longlong_as_double(old) : v > __longlong_as_double(old)) {
        unsigned long long seen = atomicCAS((unsigned long long*)at, old, (unsigned long long)bits);
        if (seen == old) {
            return;
        }
        old = seen;
    }
}

__device__ __forceinline__ uint64_t shuffleXor(uint64_t v, int offset) {
    return __shfl_xor_sync(FULL_WARP, (unsigned long long)v, offset);
}

__device__ __forceinline__ void warpSum128(uint64_t& low, uint64_t& high) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        add128(low, high, shuffleXor(low, offset), shuffleXor(high, offset));
    }
}

__device__ __forceinline__ uint64_t warpCount(uint64_t n) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        n += shuffleXor(n, offset);
    }
    return n;
}

__device__ __forceinline__ long long warpSumDouble(long long bits) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        bits = __double_as_longlong(__dadd_rn(__longlong_as_double(bits), __longlong_as_double(shuffleXor(bits, offset))));
    }
    return bits;
}

__device__ __forceinline__ long long warpMin(long long v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = min(v, (long long)shuffleXor(v, offset));
    }
    return v;
}

__device__ __forceinline__ long long warpMax(long long v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = max(v, (long long)shuffleXor(v, offset));
    }
    return v;
}

template <bool Min>
__device__ __forceinline__ long long warpExtremeDouble(long long bits) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        long long other = shuffleXor(bits, offset);
        double o = __longlong_as_double(other);
        double v = __longlong_as_double(bits);
        if (Min ? o < v : o > v) {
            bits = other;
        }
    }
    return bits;
}

// A 16-byte state before anything is folded into it: the aggregate's identity and a count of 0.
__device__ __forceinline__ void initState(uint64_t* state, uint64_t identity) {
    state[0] = identity;
    state[1] = 0;
}

// Sets `states` consecutive states from `first` (a block's shared copy, or global ones), every
// thread of the block a share.
__device__ __forceinline__ void initStates(uint64_t* first, long long states, uint64_t identity) {
    for (long long g = threadIdx.x; g < states; g += blockDim.x) {
        initState(first + 2 * g, identity);
    }
}

// Cloned states (Sitaridi and Ross, "Ameliorating Memory Contention of OLAP operators on GPU
// Processors", section 3.3: value conflicts): a block keeps `copies` clones of each group's
// states in shared memory and a row folds into the clone its lane picks, so that rows of one
// warp crowding into a few groups update different words. A clone's two words lie apart, the
// second `stride` words after the first, so that consecutive clones of a group are consecutive
// words. The folds need no atomic's result (the hardware's fire-and-forget form; a double's MIN
// or MAX still loops on compare-and-swap): an integer sum folds a value as two halves, its low
// 32 bits (unsigned) into the first word and its high 32 bits (signed) into the second, neither of
// which can wrap while a clone takes fewer than 2^32 rows; the halves are combined into 128 bits
// when the clones merge.
__device__ __forceinline__ void foldSplitSum(uint64_t* at, long long stride, long long v) {
    atomicAdd((unsigned long long*)at, (unsigned long long)(uint32_t)v);
    atomicAdd((unsigned long long*)(at + stride), (unsigned long long)(v >> 32));
}

// Sets `states` clones (first words at `first`, second words `states` after) to (identity, 0),
// every thread of the block a share.
__device__ __forceinline__ void initClones(uint64_t* first, long long states, uint64_t identity) {
    for (long long c = threadIdx.x; c < states; c += blockDim.x) {
        first[c] = identity;
        first[states + c] = 0;
    }
}

// The rows the `copies` clones at `clone` counted.
__device__ __forceinline__ uint64_t mergedCount(const uint64_t* clone, int copies) {
    uint64_t n = 0;
    for (int c = 0; c < copies; c++) {
        n += clone[c];
    }
    return n;
}

// The 128-bit (low, high) sum of the `copies` split sums at `clone`: each clone's second word times
// 2^32 plus its first.
__device__ __forceinline__ void mergedSplitSum(const uint64_t* clone, long long stride, int copies,
                                               uint64_t& low, uint64_t& high) {
    low = 0;
    high = 0;
    for (int c = 0; c < copies; c++) {
        long long upper = (long long)clone[stride + c];
        add128(low, high, (uint64_t)upper << 32, (uint64_t)(upper >> 32));
        add128(low, high, clone[c], 0);
    }
}

__device__ __forceinline__ long long mergedSumDouble(const uint64_t* clone, int copies) {
    double sum = 0;
    for (int c = 0; c < copies; c++) {
        sum = __dadd_rn(sum, __longlong_as_double(clone[c]));
    }
    return __double_as_longlong(sum);
}

template <bool Min>
__device__ __forceinline__ long long mergedExtreme(const uint64_t* clone, int copies) {
    long long v = (long long)clone[0];
    for (int c = 1; c < copies; c++) {
        v = Min ? min(v, (long long)clone[c]) : max(v, (long long)clone[c]);
    }
    return v;
}

template <bool Min>
__device__ __forceinline__ long long mergedExtremeDouble(const uint64_t* clone, int copies) {
    long long bits = (long long)clone[0];
    for (int c = 1; c < copies; c++) {
        double o = __longlong_as_double(clone[c]);
        double v = __longlong_as_double(bits);
        if (Min ? o < v : o > v) {
            bits = (long long)clone[c];
        }
    }
    return bits;
}
