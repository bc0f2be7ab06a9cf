// Kernels of the out-of-core partitioned hash join (the thesis' Triton join, chapter 4): both
// sides are radix-partitioned on the GPU by the top bits of the key's hash, into (key, row)
// tuples laid out partition after partition in an array whose first part is device memory and
// whose rest is pinned host memory the kernels write and read over the link; then each batch of
// partition pairs is joined with one hash table per partition, small enough for device memory.
// Fibonacci hashing as the engine's other hash tables: h = key * 0x9E3779B97F4A7C15; partition =
// top `bits` of h, slot within the partition's table = the next `tableBits`.
#include <stdint.h>

#define HASH_MULTIPLIER 0x9E3779B97F4A7C15ull
// Rows a block stages in shared memory at once: with at most 256 partitions a partition's run in
// a tile averages 8 tuples (128 bytes), so its write leaves in whole lines.
#define TILE 2048
#define MAX_BITS 8
// partition_scatter's block size, which the host launches it with: each thread stages TILE / THREADS rows.
#define THREADS 256
#define PER_THREAD (TILE / THREADS)
#define EMPTY_ROW (-1ll)

struct Tuple {
    long long key;
    long long row;
};

__device__ __forceinline__ uint64_t hashOf(long long key) {
    return (uint64_t)key * HASH_MULTIPLIER;
}

__device__ __forceinline__ unsigned int partitionOf(uint64_t h, int bits) {
    return (unsigned int)(h >> (64 - bits));
}

__device__ __forceinline__ uint64_t slotOf(uint64_t h, int bits, int tableBits) {
    return (h << bits) >> (64 - tableBits);
}

// Key i of a column `width` bytes wide (1, 4 or 8; signed), as the engine stores them.
__device__ __forceinline__ long long keyAt(const void* keys, int width, int64_t i) {
    switch (width) {
        case 1: return ((const signed char*)keys)[i];
        case 4: return ((const int*)keys)[i];
        default: return ((const long long*)keys)[i];
    }
}

// NULL keys join nothing: they are left out of the partitions.
__device__ __forceinline__ bool present(const unsigned char* nulls, int64_t i) {
    return nulls == nullptr || nulls[i] == 0;
}

// This block's rows, [begin, end): one contiguous range, so that the histogram and the scatter
// see the same rows in the same order.
__device__ __forceinline__ void blockRows(int64_t n, int64_t* begin, int64_t* end) {
    int64_t per = (n + gridDim.x - 1) / gridDim.x;
    *begin = min(n, per * (int64_t)blockIdx.x);
    *end = min(n, *begin + per);
}

// starts[p] = counts[0] + ... + counts[p - 1] for p < fanout; every thread of the block calls it.
__device__ void blockExclusiveScan(const unsigned int* counts, unsigned int* starts, int fanout, unsigned int* scratch) {
    int per = (fanout + blockDim.x - 1) / blockDim.x;
    int first = min(fanout, (int)threadIdx.x * per);
    int last = min(fanout, first + per);
    unsigned int sum = 0;
    for (int j = first; j < last; j++) {
        sum += counts[j];
    }
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset <<= 1) {
        unsigned int before = threadIdx.x >= offset ? scratch[threadIdx.x - offset] : 0;
        __syncthreads();
        scratch[threadIdx.x] += before;
        __syncthreads();
    }
    unsigned int run = scratch[threadIdx.x] - sum;
    for (int j = first; j < last; j++) {
        starts[j] = run;
        run += counts[j];
    }
    __syncthreads();
}

// counts[p * gridDim.x + block] = how many of the block's rows fall in partition p (partition
// major, so one exclusive scan of the whole array gives every block's write position per partition).
extern "C" __global__ void partition_histogram(const void* keys, int width, const unsigned char* nulls, int64_t n,
                                               int bits, unsigned int* counts) {
    __shared__ unsigned int histogram[1 << MAX_BITS];
    const int fanout = 1 << bits;
    for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
        histogram[p] = 0;
    }
    __syncthreads();
    int64_t begin, end;
    blockRows(n, &begin, &end);
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
        if (present(nulls, i)) {
            atomicAdd(&histogram[partitionOf(hashOf(keyAt(keys, width, i)), bits)], 1u);
        }
    }
    __syncthreads();
    for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
        counts[(int64_t)p * gridDim.x + blockIdx.x] = histogram[p];
    }
}

// Writes each row's (key, row) tuple at its partition's next position (offsets: the exclusive scan
// of partition_histogram's counts). A tile of rows is first ordered by partition in shared memory,
// then written run by run with consecutive threads on consecutive tuples: shared-memory write
// combining, so that writes over the link (spilled partitions) leave coalesced.
extern "C" __global__ void partition_scatter(const void* keys, int width, const unsigned char* nulls, int64_t n,
                                             int bits, const unsigned long long* offsets, Tuple* out) {
    __shared__ unsigned long long cursor[1 << MAX_BITS];
    __shared__ unsigned int tileCount[1 << MAX_BITS];
    __shared__ unsigned int tileStart[1 << MAX_BITS];
    __shared__ unsigned int scratch[THREADS];
    __shared__ Tuple staged[TILE];
    __shared__ unsigned char stagedPartition[TILE];
    const int fanout = 1 << bits;
    for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
        cursor[p] = offsets[(int64_t)p * gridDim.x + blockIdx.x];
    }
    int64_t begin, end;
    blockRows(n, &begin, &end);
    for (int64_t tile = begin; tile < end; tile += TILE) {
        for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
            tileCount[p] = 0;
        }
        __syncthreads();
        long long key[PER_THREAD];
        unsigned int part[PER_THREAD];
        int position[PER_THREAD];
#pragma unroll
        for (int r = 0; r < PER_THREAD; r++) {
            int64_t i = tile + r * blockDim.x + threadIdx.x;
            position[r] = -1;
            if (i < end && present(nulls, i)) {
                key[r] = keyAt(keys, width, i);
                part[r] = partitionOf(hashOf(key[r]), bits);
                position[r] = atomicAdd(&tileCount[part[r]], 1u);
            }
        }
        __syncthreads();
        blockExclusiveScan(tileCount, tileStart, fanout, scratch);
#pragma unroll
        for (int r = 0; r < PER_THREAD; r++) {
            if (position[r] >= 0) {
                unsigned int at = tileStart[part[r]] + position[r];
                staged[at].key = key[r];
                staged[at].row = tile + r * blockDim.x + threadIdx.x;
                stagedPartition[at] = (unsigned char)part[r];
            }
        }
        __syncthreads();
        const unsigned int total = tileStart[fanout - 1] + tileCount[fanout - 1];
        for (unsigned int k = threadIdx.x; k < total; k += blockDim.x) {
            unsigned int p = stagedPartition[k];
            out[cursor[p] + (k - tileStart[p])] = staged[k];
        }
        __syncthreads();
        for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
            cursor[p] += tileCount[p];
        }
        __syncthreads();
    }
}

// Inserts tuples[begin, end) (partitions first.. of one batch, their keys unique) into their
// partition's table: 2^tableBits slots at tables + ((p - first) << tableBits), all rows EMPTY_ROW
// beforehand. Linear probing; a slot is claimed by swapping its row in.
extern "C" __global__ void build_partitions(const Tuple* tuples, int64_t begin, int64_t end, int bits, int first,
                                            Tuple* tables, int tableBits) {
    const uint64_t mask = (1ull << tableBits) - 1;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride) {
        Tuple t = tuples[i];
        uint64_t h = hashOf(t.key);
        Tuple* table = tables + ((int64_t)(partitionOf(h, bits) - first) << tableBits);
        for (uint64_t s = slotOf(h, bits, tableBits);; s = (s + 1) & mask) {
            unsigned long long* row = (unsigned long long*)&table[s].row;
            if (atomicCAS(row, (unsigned long long)EMPTY_ROW, (unsigned long long)t.row) == (unsigned long long)EMPTY_ROW) {
                table[s].key = t.key;
                break;
            }
        }
    }
}

// For each probe tuple in [begin, end) whose key its partition's table holds, matches[row] = the
// build row (matches holds -1 beforehand, which stays for a key that finds nothing).
extern "C" __global__ void probe_partitions(const Tuple* tuples, int64_t begin, int64_t end, int bits, int first,
                                            const Tuple* tables, int tableBits, int* matches) {
    const uint64_t mask = (1ull << tableBits) - 1;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride) {
        Tuple t = tuples[i];
        uint64_t h = hashOf(t.key);
        const Tuple* table = tables + ((int64_t)(partitionOf(h, bits) - first) << tableBits);
        for (uint64_t s = slotOf(h, bits, tableBits);; s = (s + 1) & mask) {
            Tuple slot = table[s];
            if (slot.row == EMPTY_ROW) {
                break;
            }
            if (slot.key == t.key) {
                matches[t.row] = (int)slot.row;
                break;
            }
        }
    }
}
