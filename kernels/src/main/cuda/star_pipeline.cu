// Support kernels of the star pipelines. The fused pipeline kernels themselves are generated per
// pipeline as PTX at run time (dev.starling.gpu.pipeline.StarKernelPtx) and compiled by the
// driver, so each one's values live in machine registers; the kernels here are the fixed parts.
#include "aggregate.cuh"

extern "C" __global__ void init_accumulators(uint64_t* acc, const AggSlot* slots, int nslots, int groups) {
    initSlots(acc, slots, nslots, groups, (int64_t)blockIdx.x * blockDim.x + threadIdx.x, (int64_t)gridDim.x * blockDim.x);
}
