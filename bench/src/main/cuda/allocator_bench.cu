// Kernels of AllocatorBenchMain: a join whose output size is not known beforehand, written through
// one atomic bump counter, counted first and written second, or into pages of seed 000's pool
// (RW-BM and CoRW); and a group-by through the engine's open-addressing table (group_table.cuh)
// against seed 001's slab hash. Each kernel walks its rows in warp-wide tiles so that warp-wide
// calls see every lane.
#include "place.cuh"
#include "group_table.cuh"
#include "slab_hash.cuh"

#define THREADS 256

__device__ __forceinline__ unsigned laneId() {
    return threadIdx.x & 31;
}

__device__ __forceinline__ unsigned long long warpCount() {
    return (unsigned long long)gridDim.x * (THREADS / 32);
}

__device__ __forceinline__ unsigned long long warpIndex() {
    return (unsigned long long)blockIdx.x * (THREADS / 32) + threadIdx.x / 32;
}

// ---- the join: probe row i matches build positions offsets[probe[i]] .. offsets[probe[i] + 1] ----

// The join's walk, which every way of writing its output shares: the warps take tiles of 32 probe
// rows, and a tile's lanes step through their rows' matches [j, end) together, calling
// step(alive, i, j) at each step: lane `alive` has probe row i's match j. Every lane calls it as
// long as one lane has a match left, so warp-wide calls inside see the whole warp.
template <typename Step>
__device__ __forceinline__ void forEachMatchStep(const int* probe, long long n, const long long* offsets, Step step) {
    for (unsigned long long base = warpIndex() * 32; base < (unsigned long long)n; base += warpCount() * 32) {
        long long i = (long long)(base + laneId());
        long long j = i < n ? offsets[probe[i]] : 0;
        long long end = i < n ? offsets[probe[i] + 1] : 0;
        for (; __any_sync(FULL_WARP, j < end); j++) {
            step(j < end, i, j);
        }
    }
}

// sums[0..2] += a, b, c: a read-back's totals.
__device__ __forceinline__ void addSums(unsigned long long* sums, unsigned long long a, unsigned long long b,
                                        unsigned long long c) {
    atomicAdd(sums, a);
    atomicAdd(sums + 1, b);
    atomicAdd(sums + 2, c);
}

// One atomic bump counter for the whole output (the engine's reservePlace): a warp's matches take
// consecutive places with one atomic by its first lane. Matches past `capacity` are counted only.
extern "C" __global__ void joinBump(const int* probe, long long n, const long long* offsets, long long* out0,
                                    long long* out1, unsigned long long* counter, long long capacity) {
    unsigned lane = laneId();
    forEachMatchStep(probe, n, offsets, [&](bool alive, long long i, long long j) {
        long long place = reservePlace(alive, counter, lane);
        if (alive && place < capacity) {
            out0[place] = i;
            out1[place] = j;
        }
    });
}

__device__ __forceinline__ long long blockSum(long long v, long long* shared) {
    for (int d = 16; d > 0; d >>= 1) {
        v += __shfl_down_sync(FULL_WARP, v, d);
    }
    if (laneId() == 0) {
        shared[threadIdx.x / 32] = v;
    }
    __syncthreads();
    long long total = 0;
    for (int w = 0; w < THREADS / 32; w++) {
        total += shared[w];
    }
    __syncthreads();
    return total;
}

// First pass of count-then-write: each block's matches.
extern "C" __global__ void joinCount(const int* probe, long long n, const long long* offsets,
                                     long long* blockCounts) {
    __shared__ long long sums[THREADS / 32];
    long long mine = 0;
    for (unsigned long long base = warpIndex() * 32; base < (unsigned long long)n; base += warpCount() * 32) {
        long long i = (long long)(base + laneId());
        if (i < n) {
            mine += offsets[probe[i] + 1] - offsets[probe[i]];
        }
    }
    long long total = blockSum(mine, sums);
    if (threadIdx.x == 0) {
        blockCounts[blockIdx.x] = total;
    }
}

// Exclusive prefix sum of the blocks' counts (one block of THREADS threads; blocks <= THREADS * 8),
// the total at `blocks`.
extern "C" __global__ void scanCounts(long long* counts, int blocks) {
    __shared__ long long partial[THREADS];
    const int per = (blocks + THREADS - 1) / THREADS;
    long long own = 0;
    for (int b = threadIdx.x * per; b < blocks && b < (int)(threadIdx.x + 1) * per; b++) {
        own += counts[b];
    }
    partial[threadIdx.x] = own;
    __syncthreads();
    if (threadIdx.x == 0) {
        long long run = 0;
        for (int t = 0; t < THREADS; t++) {
            long long v = partial[t];
            partial[t] = run;
            run += v;
        }
        counts[blocks] = run;
    }
    __syncthreads();
    long long run = partial[threadIdx.x];
    for (int b = threadIdx.x * per; b < blocks && b < (int)(threadIdx.x + 1) * per; b++) {
        long long v = counts[b];
        counts[b] = run;
        run += v;
    }
}

// Second pass: the same walk, each block writing from where the scan put it.
extern "C" __global__ void joinWrite(const int* probe, long long n, const long long* offsets, long long* out0,
                                     long long* out1, const long long* blockStarts) {
    __shared__ unsigned long long next;
    if (threadIdx.x == 0) {
        next = (unsigned long long)blockStarts[blockIdx.x];
    }
    __syncthreads();
    unsigned lane = laneId();
    forEachMatchStep(probe, n, offsets, [&](bool alive, long long i, long long j) {
        long long place = reservePlace(alive, &next, lane);
        if (alive) {
            out0[place] = i;
            out1[place] = j;
        }
    });
}

// Each thread writes its matches into pages of its own (`perPage` tuples each, the two columns one
// after the other in the page), taking a new page from the pool when one fills: RW-BM per thread,
// or CoRW for the lanes of a warp that need one at once. A page's row count goes to pageRows when
// it is left. A thread that finds no page sets *status.
template <bool Collaborative>
__device__ __forceinline__ void joinPages(const int* probe, long long n, const long long* offsets, long long* pool,
                                          int perPage, unsigned* used, unsigned words, int* pageRows,
                                          int* status) {
    unsigned lane = laneId();
    unsigned rng = seedRandom(blockIdx.x * (unsigned long long)THREADS + threadIdx.x, 17);
    long long page = -1;
    int fill = 0;
    forEachMatchStep(probe, n, offsets, [&](bool alive, long long i, long long j) {
        bool wants = alive && (page < 0 || fill == perPage);
        if (wants && page >= 0) {
            pageRows[page] = fill;
        }
        long long taken = Collaborative ? corwTakePage(wants, used, words, rng, lane, 256)
                                        : wants ? rwbmTakePage(used, words, rng, 256) : -1;
        if (wants) {
            page = taken;
            fill = 0;
            if (page < 0) {
                *status = 1;
            }
        }
        if (alive && page >= 0) {
            long long* at = pool + page * 2 * perPage;
            at[fill] = i;
            at[perPage + fill] = j;
            fill++;
        }
    });
    if (page >= 0) {
        pageRows[page] = fill;
    }
}

extern "C" __global__ void joinPagesRwbm(const int* probe, long long n, const long long* offsets, long long* pool,
                                         int perPage, unsigned* used, unsigned words, int* pageRows, int* status) {
    joinPages<false>(probe, n, offsets, pool, perPage, used, words, pageRows, status);
}

extern "C" __global__ void joinPagesCorw(const int* probe, long long n, const long long* offsets, long long* pool,
                                         int perPage, unsigned* used, unsigned words, int* pageRows, int* status) {
    joinPages<true>(probe, n, offsets, pool, perPage, used, words, pageRows, status);
}

// Each warp writes its matches into a page of its own, the lanes' rows of a step side by side (so
// the writes coalesce), and takes a new page when a step's rows do not fit: the next page of one
// bump counter (one atomic per page, not per step), or a page of seed 000's pool by RW-BM.
template <bool Pool>
__device__ __forceinline__ void joinWarpPages(const int* probe, long long n, const long long* offsets, long long* pool,
                                              int perPage, unsigned* used, unsigned words,
                                              unsigned long long* counter, int* pageRows, int* status) {
    unsigned lane = laneId();
    unsigned rng = seedRandom(blockIdx.x * (unsigned long long)THREADS + threadIdx.x, 23);
    long long page = -1;
    int fill = 0;
    forEachMatchStep(probe, n, offsets, [&](bool alive, long long i, long long j) {
        unsigned survivors = __ballot_sync(FULL_WARP, alive);
        int rows = __popc(survivors);
        if (page < 0 || fill + rows > perPage) {
            long long taken = -1;
            if (lane == 0) {
                if (page >= 0) {
                    pageRows[page] = fill;
                }
                taken = Pool ? rwbmTakePage(used, words, rng, 256) : (long long)atomicAdd(counter, 1ull);
                if (taken >= 32ll * words) {
                    taken = -1;
                }
                if (taken < 0) {
                    *status = 1;
                }
            }
            page = __shfl_sync(FULL_WARP, taken, 0);
            fill = 0;
        }
        if (alive && page >= 0) {
            long long* at = pool + page * 2 * perPage + fill + __popc(survivors & ((1u << lane) - 1));
            at[0] = i;
            at[perPage] = j;
        }
        fill += rows;
    });
    if (page >= 0 && lane == 0) {
        pageRows[page] = fill;
    }
}

extern "C" __global__ void joinWarpPagesBump(const int* probe, long long n, const long long* offsets, long long* pool,
                                             int perPage, unsigned* used, unsigned words, unsigned long long* counter,
                                             int* pageRows, int* status) {
    joinWarpPages<false>(probe, n, offsets, pool, perPage, used, words, counter, pageRows, status);
}

extern "C" __global__ void joinWarpPagesRwbm(const int* probe, long long n, const long long* offsets, long long* pool,
                                             int perPage, unsigned* used, unsigned words, unsigned long long* counter,
                                             int* pageRows, int* status) {
    joinWarpPages<true>(probe, n, offsets, pool, perPage, used, words, counter, pageRows, status);
}

// sums[0] += the tuples, sums[1] += their first column, sums[2] += their second (wrapping).
extern "C" __global__ void checksumColumns(const long long* out0, const long long* out1, long long count,
                                           unsigned long long* sums) {
    unsigned long long a = 0;
    unsigned long long b = 0;
    for (long long t = blockIdx.x * (long long)THREADS + threadIdx.x; t < count; t += (long long)gridDim.x * THREADS) {
        a += (unsigned long long)out0[t];
        b += (unsigned long long)out1[t];
    }
    atomicAdd(sums + 1, a);
    atomicAdd(sums + 2, b);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicAdd(sums, (unsigned long long)count);
    }
}

// The same over the pages whose used bit is set (pages the test set aside hold -1 rows).
extern "C" __global__ void checksumPages(const long long* pool, int perPage, const unsigned* used, long long pages,
                                         const int* pageRows, unsigned long long* sums) {
    unsigned long long a = 0;
    unsigned long long b = 0;
    unsigned long long c = 0;
    for (long long p = blockIdx.x * (long long)THREADS + threadIdx.x; p < pages; p += (long long)gridDim.x * THREADS) {
        if (((used[p >> 5] >> (p & 31)) & 1u) == 0 || pageRows[p] < 0) {
            continue;
        }
        const long long* at = pool + p * 2 * perPage;
        for (int r = 0; r < pageRows[p]; r++) {
            a += (unsigned long long)at[r];
            b += (unsigned long long)at[perPage + r];
        }
        c += (unsigned long long)pageRows[p];
    }
    addSums(sums, c, a, b);
}

// ---- the group-by: COUNT(*) and SUM(v) by a 64-bit group id ----

// Row i's group: one of `groups` ids spread over 62 bits; its value i mod 1024.
__device__ __forceinline__ unsigned long long groupOf(long long i, long long groups) {
    unsigned long long g = ((unsigned long long)i * 0xd6e8feb86659fd93ull >> 17) % (unsigned long long)groups;
    return (g * 0x9e3779b97f4a7c15ull) >> 2;
}

extern "C" __global__ void makeGroups(unsigned long long* ids, long long n, long long groups) {
    for (long long i = blockIdx.x * (long long)THREADS + threadIdx.x; i < n; i += (long long)gridDim.x * THREADS) {
        ids[i] = groupOf(i, groups);
    }
}

extern "C" __global__ void groupOpen(const unsigned long long* ids, long long n, unsigned long long* keys, int shift,
                                     unsigned long long* states, int* status) {
    for (long long i = blockIdx.x * (long long)THREADS + threadIdx.x; i < n; i += (long long)gridDim.x * THREADS) {
        long long slot = groupSlot(keys, shift, (long long)ids[i], ~0ull);
        if (slot < 0) {
            *status = 1;
            continue;
        }
        atomicAdd(states + 2 * slot, 1ull);
        atomicAdd(states + 2 * slot + 1, (unsigned long long)(i & 1023));
    }
}

extern "C" __global__ void groupSlab(const unsigned long long* ids, long long n, unsigned long long* slabs, int shift,
                                     unsigned* used, unsigned words, unsigned long long* states, int* status) {
    unsigned lane = laneId();
    unsigned rng = seedRandom(blockIdx.x * (unsigned long long)THREADS + threadIdx.x, 29);
    for (unsigned long long base = warpIndex() * 32; base < (unsigned long long)n; base += warpCount() * 32) {
        long long i = (long long)(base + lane);
        bool active = i < n;
        long long slot = slabGroupSlot(active, active ? ids[i] : 0, slabs, shift, used, words, states, 2, rng, lane);
        if (slot == -2) {
            *status = 1;
        }
        if (slot >= 0) {
            atomicAdd(states + 2 * slot, 1ull);
            atomicAdd(states + 2 * slot + 1, (unsigned long long)(i & 1023));
        }
    }
}

// What a read-back of the groups sees: sums[0] += groups, [1] += their counts, [2] += their sums.
extern "C" __global__ void scanOpen(const unsigned long long* keys, long long slots, const unsigned long long* states,
                                    unsigned long long* sums) {
    unsigned long long g = 0;
    unsigned long long c = 0;
    unsigned long long s = 0;
    for (long long t = blockIdx.x * (long long)THREADS + threadIdx.x; t < slots; t += (long long)gridDim.x * THREADS) {
        if (keys[t] != EMPTY_GROUP) {
            g++;
            c += states[2 * t];
            s += states[2 * t + 1];
        }
    }
    addSums(sums, g, c, s);
}

// The same over the buckets and the pool's slabs in use (one thread per slab and key word).
extern "C" __global__ void scanSlab(const unsigned long long* slabs, long long buckets, long long pages,
                                    const unsigned* used, const unsigned long long* states, unsigned long long* sums) {
    unsigned long long g = 0;
    unsigned long long c = 0;
    unsigned long long s = 0;
    long long words = (buckets + pages) * SLAB_WORDS;
    for (long long t = blockIdx.x * (long long)THREADS + threadIdx.x; t < words; t += (long long)gridDim.x * THREADS) {
        long long slab = t / SLAB_WORDS;
        int key = (int)(t % SLAB_WORDS);
        long long page = slab - buckets;
        if (key == SLAB_KEYS || (page >= 0 && ((used[page >> 5] >> (page & 31)) & 1u) == 0)) {
            continue;
        }
        if (slabs[t] != SLAB_EMPTY) {
            long long at = slab * SLAB_KEYS + key;
            g++;
            c += states[2 * at];
            s += states[2 * at + 1];
        }
    }
    addSums(sums, g, c, s);
}
