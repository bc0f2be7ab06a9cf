// Kernels of the transfer-method measurements: reading 64-bit words where they are, in device
// memory or in pinned host memory mapped into the device's address space (zero-copy, every read
// crossing the link), so the kernel's time is the bandwidth of where the words live.
#include "fold.cuh"

// Adds words[0..n) into *sum: a grid-stride loop, a warp-wide reduction, one atomic per warp.
extern "C" __global__ void read_words(const uint64_t* words, int64_t n, unsigned long long* sum) {
    uint64_t s = 0;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        s += words[i];
    }
    s = warpCount(s);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(sum, (unsigned long long)s);
    }
}
