// Fused star pipelines: each thread takes one fact row per step of a grid-stride loop, runs the
// pipeline's program over it (fact predicates, dimension probes, group key, aggregate arguments)
// and folds the row into the aggregates, so no intermediate result touches device memory.
// Aggregates live in shared memory when the groups fit (merged into global memory once per
// block), else directly in global memory.
#include "pipeline.cuh"
#include "program.cuh"
#include "aggregate.cuh"

extern "C" __global__ void init_accumulators(uint64_t* acc, const AggSlot* slots, int nslots, int groups) {
    initSlots(acc, slots, nslots, groups, (int64_t)blockIdx.x * blockDim.x + threadIdx.x, (int64_t)gridDim.x * blockDim.x);
}

extern "C" __global__ void star_aggregate(const Instr* code, int length, const Column* columns,
                                          const Dimension* dimensions, const Column* dimColumns,
                                          const int64_t* constants, int* status, const AggSlot* slots,
                                          int nslots, int64_t rows, int groups, int useShared, uint64_t* global) {
    extern __shared__ uint64_t shared[];
    const Program program{code, length, columns, dimensions, dimColumns, constants, status};
    uint64_t* acc = useShared ? shared : global;
    if (useShared) {
        initSlots(shared, slots, nslots, groups, threadIdx.x, blockDim.x);
        __syncthreads();
    }
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    // The loop bound is the same for every thread of a block, so whole warps stay together for
    // the warp-wide fold of scalar aggregates.
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < rows; base += stride) {
        const int64_t row = base + threadIdx.x;
        Registers r;
        int64_t group = 0;
        const bool kept = row < rows && runProgram(program, row, r, group);
        if (groups == 1) {
            foldWarp(acc, slots, nslots, r, kept);
        } else if (kept) {
            foldRow(acc, groups, group, slots, nslots, r);
        }
    }
    if (useShared) {
        __syncthreads();
        mergeBlock(global, shared, slots, nslots, groups);
    }
}
