// The persistent append operator (XeFlow: "Streamlining Inter-Processor Pipeline Execution",
// sections 3 and 5.1): one kernel, launched once per burst of appends, takes batch after batch of
// rows that the host publishes in mapped pinned memory and writes them into device columns, with
// no launch and no copy call per batch. The host publishes batch k by filling ring slot k % slots
// and its descriptor, then storing k + 1 into `published`; every block copies its share of the
// batch straight from the slot over the link (zero-copy) and the last block to finish it stores k
// into the slot's `landed` word, which lets the host fill that slot again. `stop` ends the kernel
// once the host has seen every batch land. `mirror` (two words) and `blocksDone` (one counter a
// slot) are device memory, zero at launch.
//
// The control words, 64-bit, in mapped pinned memory (AppendRing lays them out):
//   [0] published: batches published so far;  [1] stop: non-zero ends the kernel;
//   [2 + s] landed: the last batch that slot s carried, once it is on the device;
//   then per slot s, at 2 + slots + s * (2 + 2 * columns): first row, rows, then each column's
//   values offset in the slot, then each column's NULL flags offset (~0 when it has none).
#include "types.cuh"
#include "structs.cuh"

__device__ __forceinline__ unsigned long long loadAcquire(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void storeRelease(unsigned long long* p, unsigned long long v) {
    asm volatile("st.release.sys.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Copies n bytes from the slot to the device column; the host placed the source at the same
// address modulo 16 as the destination, so both are 16-byte aligned past the first few bytes.
// Slot bytes are loaded with ld.global.cv: a slot is refilled for every `slots`-th batch, and a
// cached line of its previous batch must not be read.
__device__ void copyFromSlot(uint8_t* dst, const uint8_t* src, long long n, long long thread, long long threads) {
    long long head = (16 - ((unsigned long long)dst & 15)) & 15;
    head = head < n ? head : n;
    for (long long i = thread; i < head; i += threads) {
        dst[i] = __ldcv(src + i);
    }
    uint4* d = (uint4*)(dst + head);
    const uint4* s = (const uint4*)(src + head);
    const long long words = (n - head) >> 4;
    long long i = thread;
    // four loads in flight per thread before their stores: the link's latency is microseconds
    for (; i + 3 * threads < words; i += 4 * threads) {
        uint4 a = __ldcv(s + i), b = __ldcv(s + i + threads), c = __ldcv(s + i + 2 * threads),
              e = __ldcv(s + i + 3 * threads);
        d[i] = a;
        d[i + threads] = b;
        d[i + 2 * threads] = c;
        d[i + 3 * threads] = e;
    }
    for (; i < words; i += threads) {
        d[i] = __ldcv(s + i);
    }
    for (long long j = head + (words << 4) + thread; j < n; j += threads) {
        dst[j] = __ldcv(src + j);
    }
}

__device__ __forceinline__ unsigned long long loadAcquireGpu(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void storeReleaseGpu(unsigned long long* p, unsigned long long v) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Waits, in thread 0, until batch `next` is published (true) or the host says stop (false). Only
// block 0 polls the host's words over the link; it mirrors them into device memory (`mirror`:
// batches published, stop), where the other blocks poll them.
__device__ bool awaitBatch(const unsigned long long* control, unsigned long long* mirror, unsigned long long next) {
    __shared__ int go;
    if (threadIdx.x == 0) {
        unsigned sleep = 32;
        for (;;) {
            if (blockIdx.x == 0) {
                const unsigned long long published = loadAcquire(control);
                if (published > next) {
                    storeReleaseGpu(mirror, published);
                    go = 1;
                    break;
                }
                if (loadAcquire(control + 1) != 0) {
                    storeReleaseGpu(mirror + 1, 1);
                    go = 0;
                    break;
                }
            } else {
                if (loadAcquireGpu(mirror) > next) {
                    go = 1;
                    break;
                }
                if (loadAcquireGpu(mirror + 1) != 0) {
                    go = 0;
                    break;
                }
            }
            __nanosleep(sleep);
            sleep = sleep < 1024 ? sleep * 2 : sleep;
        }
    }
    __syncthreads();
    return go != 0;
}

extern "C" __global__ void persistent_append(unsigned long long* control, const uint8_t* ring, long long slotBytes,
                                             int slots, const AppendTarget* targets, int columns,
                                             unsigned long long* mirror, unsigned int* blocksDone,
                                             unsigned long long firstBatch) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    for (unsigned long long batch = firstBatch; awaitBatch(control, mirror, batch); batch++) {
        const int slot = (int)(batch % slots);
        const unsigned long long* d = control + 2 + slots + (long long)slot * (2 + 2 * columns);
        const long long first = (long long)__ldcv(d), rows = (long long)__ldcv(d + 1);
        const uint8_t* base = ring + slot * slotBytes;
        for (int c = 0; c < columns; c++) {
            const AppendTarget t = targets[c];
            copyFromSlot(t.values + first * t.width, base + __ldcv(d + 2 + c), rows * t.width, thread, threads);
            const unsigned long long nulls = __ldcv(d + 2 + columns + c);
            if (t.nulls != 0 && nulls != ~0ull) {
                copyFromSlot(t.nulls + first, base + nulls, rows, thread, threads);
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            if (atomicAdd(blocksDone + slot, 1u) == gridDim.x - 1) {
                blocksDone[slot] = 0;
                __threadfence_system();
                storeRelease(control + 2 + slot, batch);
            }
        }
    }
}
