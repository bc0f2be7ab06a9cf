// Kernels of the out-of-core partitioned hash join (Lutz's thesis' Triton join, chapter 4).
// 1st pass: both sides are radix-partitioned by the top bits of the key's hash into (key, row)
//   tuples laid out partition after partition, in an array whose first part is device memory and
//   whose rest is pinned host memory the kernels write and read over the link.
// 2nd pass: a batch of partition pairs is partitioned again by the next bits, from wherever the
//   first pass left it into a work buffer in device memory, into sub-partitions whose build side
//   fits a hash table in shared memory.
// Join: one block per pair of sub-partitions builds that table and probes it.
// Both passes combine writes in shared memory: a tile of tuples is ordered by partition there,
// then written run by run with consecutive threads on consecutive tuples, so that writes over the
// link leave in whole lines.
// The engine's hash (hash.cuh); a pass that skips `skip` bits takes the next `bits` of the hash
// from the top.
#include "hash.cuh"
#include "structs.cuh"

// Tuples a block stages in shared memory at once: at 512 partitions a partition's run in a tile
// averages 4 tuples (64 bytes, two sectors).
#define TILE 2048
#define MAX_BITS 9
#define MAX_FANOUT (1 << MAX_BITS)
// The partitioning kernels' block size, which the host launches them with.
#define THREADS 256
#define PER_THREAD (TILE / THREADS)
// Build tuples one shared-memory table holds, in as many chained buckets (the thesis' setting);
// a larger sub-partition is joined a table's worth at a time.
#define TABLE_ROWS 2048
#define BUCKET_BITS 11
#define NO_ENTRY (-1)

// Tuple, Slice (a block's share of the second pass) and Group (one side of one unit of work:
// group 2u is unit u's build tuples, 2u + 1 its probe tuples) are defined with the host in
// dev.starling.gpu.cuda.KernelStructs, which generates structs.cuh.
__device__ __forceinline__ unsigned int radixOf(uint64_t h, int skip, int bits) {
    return (unsigned int)((h << skip) >> (64 - bits));
}

// The first pass reads a key column as the engine stores it (1, 4 or 8 bytes wide, signed); NULL
// keys join nothing and are left out; a row's tuple carries its index.
struct ColumnSource {
    const void* keys;
    int width;
    const unsigned char* nulls;

    __device__ __forceinline__ bool load(int64_t i, Tuple* t) const {
        if (nulls != nullptr && nulls[i] != 0) {
            return false;
        }
        switch (width) {
            case 1: t->key = ((const signed char*)keys)[i]; break;
            case 4: t->key = ((const int*)keys)[i]; break;
            default: t->key = ((const long long*)keys)[i]; break;
        }
        t->row = i;
        return true;
    }
};

// The second pass reads the first pass's tuples.
struct TupleSource {
    const Tuple* tuples;

    __device__ __forceinline__ bool load(int64_t i, Tuple* t) const {
        *t = tuples[i];
        return true;
    }
};

// What a block stages in shared memory to combine its writes.
struct Staging {
    unsigned long long cursor[MAX_FANOUT];
    unsigned int count[MAX_FANOUT];
    unsigned int start[MAX_FANOUT];
    unsigned int scratch[THREADS];
    Tuple staged[TILE];
    unsigned short partition[TILE];
};

// The first pass gives each block one contiguous range of rows, so that the histogram and the
// scatter see the same rows in the same order.
__device__ __forceinline__ void blockRows(int64_t n, int64_t* begin, int64_t* end) {
    int64_t per = (n + gridDim.x - 1) / gridDim.x;
    *begin = min(n, per * (int64_t)blockIdx.x);
    *end = min(n, *begin + per);
}

// starts[j] = counts[0] + ... + counts[j - 1] for j < n (in place if starts == counts); returns the
// total. Every thread of the block calls it.
__device__ unsigned int blockExclusiveScan(const unsigned int* counts, unsigned int* starts, int n, unsigned int* scratch) {
    int per = (n + blockDim.x - 1) / blockDim.x;
    int first = min(n, (int)threadIdx.x * per);
    int last = min(n, first + per);
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
    const unsigned int total = scratch[blockDim.x - 1];
    for (int j = first; j < last; j++) {
        unsigned int c = counts[j];
        starts[j] = run;
        run += c;
    }
    __syncthreads();
    return total;
}

__device__ void clearHistogram(unsigned int* histogram, int fanout) {
    for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
        histogram[p] = 0;
    }
    __syncthreads();
}

// Counts tuples [begin, end) of `source` per partition into the block's shared histogram.
template <typename Source>
__device__ void countRun(const Source& source, int64_t begin, int64_t end, int skip, int bits, unsigned int* histogram) {
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
        Tuple t;
        if (source.load(i, &t)) {
            atomicAdd(&histogram[radixOf(hashOf(t.key), skip, bits)], 1u);
        }
    }
    __syncthreads();
}

// Writes tuples [begin, end) of `source` to `out`, each at its partition's cursor, which it
// advances: tile by tile, ordered by partition in shared memory first.
template <typename Source>
__device__ void scatterRun(const Source& source, int64_t begin, int64_t end, int skip, int bits, Staging& s, Tuple* out) {
    const int fanout = 1 << bits;
    for (int64_t tile = begin; tile < end; tile += TILE) {
        clearHistogram(s.count, fanout);
        Tuple t[PER_THREAD];
        unsigned int part[PER_THREAD];
        int position[PER_THREAD];
#pragma unroll
        for (int r = 0; r < PER_THREAD; r++) {
            int64_t i = tile + r * blockDim.x + threadIdx.x;
            position[r] = -1;
            if (i < end && source.load(i, &t[r])) {
                part[r] = radixOf(hashOf(t[r].key), skip, bits);
                position[r] = atomicAdd(&s.count[part[r]], 1u);
            }
        }
        __syncthreads();
        const unsigned int total = blockExclusiveScan(s.count, s.start, fanout, s.scratch);
#pragma unroll
        for (int r = 0; r < PER_THREAD; r++) {
            if (position[r] >= 0) {
                unsigned int at = s.start[part[r]] + position[r];
                s.staged[at] = t[r];
                s.partition[at] = (unsigned short)part[r];
            }
        }
        __syncthreads();
        for (unsigned int k = threadIdx.x; k < total; k += blockDim.x) {
            unsigned int p = s.partition[k];
            out[s.cursor[p] + (k - s.start[p])] = s.staged[k];
        }
        __syncthreads();
        for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
            s.cursor[p] += s.count[p];
        }
        __syncthreads();
    }
}

// 1st pass. counts[p * gridDim.x + block] = how many of the block's rows fall in partition p
// (partition major, so one exclusive scan of the whole array gives every block's write position
// per partition).
extern "C" __global__ void partition_histogram(const void* keys, int width, const unsigned char* nulls, int64_t n,
                                               int bits, unsigned int* counts) {
    __shared__ unsigned int histogram[MAX_FANOUT];
    const int fanout = 1 << bits;
    clearHistogram(histogram, fanout);
    int64_t begin, end;
    blockRows(n, &begin, &end);
    countRun(ColumnSource{keys, width, nulls}, begin, end, 0, bits, histogram);
    for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
        counts[(int64_t)p * gridDim.x + blockIdx.x] = histogram[p];
    }
}

// 1st pass. Writes each row's tuple at its partition's next position (offsets: the exclusive scan
// of partition_histogram's counts).
extern "C" __global__ void partition_scatter(const void* keys, int width, const unsigned char* nulls, int64_t n,
                                             int bits, const unsigned long long* offsets, Tuple* out) {
    __shared__ Staging s;
    for (int p = threadIdx.x; p < (1 << bits); p += blockDim.x) {
        s.cursor[p] = offsets[(int64_t)p * gridDim.x + blockIdx.x];
    }
    int64_t begin, end;
    blockRows(n, &begin, &end);
    scatterRun(ColumnSource{keys, width, nulls}, begin, end, 0, bits, s, out);
}

// Where the count of sub-partition p of slice s of group g sits: group by group, then partition
// by partition, then slice by slice, so that one exclusive scan of all of a batch's counts gives
// each slice its write position per sub-partition, and each sub-partition its range.
__device__ __forceinline__ unsigned int countIndex(Group g, unsigned int p, unsigned int s, int bits) {
    return (g.first << bits) + p * g.slices + s;
}

// 2nd pass, one block per slice: counts its tuples per sub-partition.
extern "C" __global__ void subpartition_histogram(const Slice* slices, const Group* groups, int skip, int bits,
                                                  unsigned int* counts) {
    __shared__ unsigned int histogram[MAX_FANOUT];
    const int fanout = 1 << bits;
    const Slice slice = slices[blockIdx.x];
    const Group g = groups[slice.group];
    clearHistogram(histogram, fanout);
    countRun(TupleSource{slice.tuples}, 0, slice.count, skip, bits, histogram);
    for (int p = threadIdx.x; p < fanout; p += blockDim.x) {
        counts[countIndex(g, p, slice.index, bits)] = histogram[p];
    }
}

// 2nd pass, one block of up to 1024 threads: the exclusive scan of a batch's n counts, in place,
// and their total at [n].
extern "C" __global__ void exclusive_scan(unsigned int* counts, int n) {
    __shared__ unsigned int scratch[1024];
    unsigned int total = blockExclusiveScan(counts, counts, n, scratch);
    if (threadIdx.x == 0) {
        counts[n] = total;
    }
}

// 2nd pass, one block per slice: writes its tuples to their sub-partitions (offsets: the scanned counts).
extern "C" __global__ void subpartition_scatter(const Slice* slices, const Group* groups, int skip, int bits,
                                                const unsigned int* offsets, Tuple* out) {
    __shared__ Staging s;
    const Slice slice = slices[blockIdx.x];
    const Group g = groups[slice.group];
    for (int p = threadIdx.x; p < (1 << bits); p += blockDim.x) {
        s.cursor[p] = offsets[countIndex(g, p, slice.index, bits)];
    }
    scatterRun(TupleSource{slice.tuples}, 0, slice.count, skip, bits, s, out);
}

// A bucket-chained hash table in shared memory of up to TABLE_ROWS build tuples.
struct SubTable {
    long long key[TABLE_ROWS];
    int row[TABLE_ROWS];
    int next[TABLE_ROWS];
    int head[1 << BUCKET_BITS];
};

// Sub-partition p of group g: [*begin, *end) of the work buffer.
__device__ __forceinline__ void subpartition(const Group* groups, const unsigned int* offsets, unsigned int g,
                                             unsigned int p, int bits, unsigned int* begin, unsigned int* end) {
    const Group group = groups[g];
    *begin = offsets[countIndex(group, p, 0, bits)];
    *end = offsets[countIndex(group, p + 1, 0, bits)];
}

// Fills the table with build tuples [begin, end), at most TABLE_ROWS of them; `skip`: the bits
// both passes took, the bucket is the next BUCKET_BITS.
__device__ void buildTable(SubTable& table, const Tuple* tuples, unsigned int begin, unsigned int end, int skip) {
    for (int b = threadIdx.x; b < (1 << BUCKET_BITS); b += blockDim.x) {
        table.head[b] = NO_ENTRY;
    }
    __syncthreads();
    for (unsigned int j = threadIdx.x; j < end - begin; j += blockDim.x) {
        const Tuple t = tuples[begin + j];
        table.key[j] = t.key;
        table.row[j] = (int)t.row;
        table.next[j] = atomicExch(&table.head[radixOf(hashOf(t.key), skip, BUCKET_BITS)], (int)j);
    }
    __syncthreads();
}

// For each probe tuple in [begin, end) whose key the table holds, matches[row] = its build row.
__device__ void probeTable(const SubTable& table, const Tuple* tuples, unsigned int begin, unsigned int end, int skip,
                           int* matches) {
    for (unsigned int i = begin + threadIdx.x; i < end; i += blockDim.x) {
        const Tuple t = tuples[i];
        for (int e = table.head[radixOf(hashOf(t.key), skip, BUCKET_BITS)]; e != NO_ENTRY; e = table.next[e]) {
            if (table.key[e] == t.key) {
                matches[t.row] = table.row[e];
                break;
            }
        }
    }
    __syncthreads();
}

// Block (u, p) joins unit u's build and probe sub-partitions p: for each table's worth of build
// tuples, build and probe (matches holds -1 beforehand, which stays for a key that finds
// nothing). `skip`: both passes' bits; `bits`: the second pass's.
extern "C" __global__ void join_subpartitions(const Group* groups, const unsigned int* offsets, const Tuple* tuples,
                                              int skip, int bits, int* matches) {
    __shared__ SubTable table;
    const unsigned int unit = blockIdx.x >> bits;
    const unsigned int p = blockIdx.x & ((1u << bits) - 1);
    unsigned int buildBegin, buildEnd, probeBegin, probeEnd;
    subpartition(groups, offsets, 2 * unit, p, bits, &buildBegin, &buildEnd);
    subpartition(groups, offsets, 2 * unit + 1, p, bits, &probeBegin, &probeEnd);
    if (probeBegin == probeEnd) {
        return;
    }
    for (unsigned int chunk = buildBegin; chunk < buildEnd; chunk += TABLE_ROWS) {
        buildTable(table, tuples, chunk, min(buildEnd, chunk + TABLE_ROWS), skip);
        probeTable(table, tuples, probeBegin, probeEnd, skip, matches);
    }
}
