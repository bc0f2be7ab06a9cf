// The hand-over between the host and a persistent kernel through mapped pinned memory, alone: the
// host stores round k + 1 into words[0] (ping), the kernel's blocks wait for it, optionally copy a
// slot of mapped memory to the device as the persistent append operator does, and the last block
// to finish stores k + 1 into words[pongWord] (pong), which the host waits for. Each variant
// changes one thing of the append operator's protocol (append.cu), so that the round trip's time
// says which of them costs what.
//
// mode bits: SLEEP   the waiting thread backs off with __nanosleep (32 ns doubling to 1 us);
//            STRONG  ping is polled with ld.acquire.sys, pong stored after __threadfence_system
//                    with st.release.sys (else volatile loads and stores);
//            COPY    every thread copies its share of copyBytes from the mapped slot with __ldcv.
// Block 0 alone polls the host's word and mirrors it into device memory, where the other blocks
// poll, as in append.cu; `done` counts finished blocks over all rounds.

#define SLEEP 1
#define STRONG 2
#define COPY 4

__device__ __forceinline__ unsigned long long pollHost(const unsigned long long* p, int mode) {
    unsigned long long v;
    if (mode & STRONG) {
        asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    } else {
        v = *(const volatile unsigned long long*)p;
    }
    return v;
}

__device__ __forceinline__ void storeHost(unsigned long long* p, unsigned long long v, int mode) {
    if (mode & STRONG) {
        __threadfence_system();
        asm volatile("st.release.sys.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
    } else {
        *(volatile unsigned long long*)p = v;
    }
}

__device__ __forceinline__ unsigned long long loadMirror(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void storeMirror(unsigned long long* p, unsigned long long v) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Thread 0 of each block waits until round k is pinged; the block follows it past the barrier.
__device__ void awaitPing(const unsigned long long* words, unsigned long long* mirror, unsigned long long k, int mode) {
    if (threadIdx.x == 0) {
        unsigned sleep = 32;
        for (;;) {
            if (blockIdx.x == 0) {
                const unsigned long long seen = pollHost(words, mode);
                if (seen > k) {
                    storeMirror(mirror, seen);
                    break;
                }
            } else if (loadMirror(mirror) > k) {
                break;
            }
            if (mode & SLEEP) {
                __nanosleep(sleep);
                sleep = sleep < 1024 ? sleep * 2 : sleep;
            }
        }
    }
    __syncthreads();
}

__device__ void copySlot(uint4* dst, const uint4* slot, long long words) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x) {
        dst[i] = __ldcv(slot + i);
    }
}

extern "C" __global__ void handover(unsigned long long* words, int pongWord, unsigned long long* mirror,
                                    unsigned int* done, const uint4* slot, uint4* dst, long long copyBytes,
                                    long long rounds, int mode) {
    for (long long k = 0; k < rounds; k++) {
        awaitPing(words, mirror, (unsigned long long)k, mode);
        if (mode & COPY) {
            copySlot(dst, slot, copyBytes >> 4);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            if (atomicAdd(done, 1u) == (unsigned)((k + 1) * gridDim.x - 1)) {
                storeHost(words + pongWord, (unsigned long long)k + 1, mode);
            }
        }
    }
}
