// A selection's rows sorted on the device (ORDER BY over a GPU pipeline's rows, before they cross
// the link): a stable least-significant-digit radix sort of the row indexes, one 64-bit key word at
// a time from the sort's last key to its first, so that sorting by a word keeps the order the words
// after it gave among rows it ties. Each word is sorted a 4-bit digit at a time, skipping the
// digits every row's word shares: counts of each digit per tile, their exclusive scan in digit
// order, then each tile's rows scattered to their places in tile order (stable).
#include "types.cuh"

#define SORT_THREADS 256
#define SORT_ROUNDS 16
#define SORT_TILE (SORT_THREADS * SORT_ROUNDS)
#define DIGIT_BITS 4
#define DIGITS (1 << DIGIT_BITS)
#define SCAN_THREADS 1024

// What a key word holds of a sort key's column: its value (an integer, a double's bits, a
// dictionary code read through the ranks of its strings), or whether it is NULL.
#define WORD_INTEGRAL 0
#define WORD_FLOATING 1
#define WORD_RANKED 2
#define WORD_NULLS 3

// A value as a word that compares as an unsigned number as the value sorts ascending: a signed
// integer with its sign bit flipped; a double as Java's Double.compare orders it (-0.0 before 0.0,
// every NaN one value after +Infinity); a string's code by the rank of its string.
__device__ __forceinline__ uint64_t ascendingWord(uint64_t value, int kind, const int* ranks) {
    if (kind == WORD_RANKED) {
        return (uint64_t)(unsigned)ranks[value];
    }
    if (kind == WORD_FLOATING) {
        if ((value & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) {
            value = 0x7ff8000000000000ull;
        }
        return (value >> 63) != 0 ? ~value : value | 0x8000000000000000ull;
    }
    return value ^ 0x8000000000000000ull;
}

// Every row's word of one sort key, in the current order of the rows (`order`: row indexes):
// descending words complemented; a NULL's value word is 0 (its NULL word places it); a NULL word is
// 0 for the rows that come first. Also folds the AND and the OR of the words into bits[0], bits[1],
// whose difference names the digits worth sorting.
extern "C" __global__ void sort_words(const uint64_t* values, const unsigned char* nulls, const long long* order,
                                      long long n, int kind, int descending, int nullsFirst, const int* ranks,
                                      uint64_t* words, unsigned long long* bits) {
    uint64_t all = ~0ull;
    uint64_t any = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        long long row = order[i];
        bool isNull = nulls != nullptr && nulls[row] != 0;
        uint64_t w;
        if (kind == WORD_NULLS) {
            w = isNull == (nullsFirst != 0) ? 0 : 1;
        } else if (isNull) {
            w = 0;
        } else {
            w = ascendingWord(values[row], kind, ranks);
            w = descending != 0 ? ~w : w;
        }
        words[i] = w;
        all &= w;
        any |= w;
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        all &= __shfl_down_sync(FULL_WARP, all, offset);
        any |= __shfl_down_sync(FULL_WARP, any, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAnd(bits, (unsigned long long)all);
        atomicOr(bits + 1, (unsigned long long)any);
    }
}

// The rows in their first order: order[i] = i.
extern "C" __global__ void identity_order(long long n, long long* order) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        order[i] = i;
    }
}

__device__ __forceinline__ int digitOf(uint64_t word, int shift) {
    return (int)((word >> shift) & (DIGITS - 1));
}

// How many words of each tile (a block's SORT_TILE) have each digit at `shift`, digit-major:
// counts[digit * tiles + tile], so that their exclusive scan is each tile's first place per digit.
extern "C" __global__ void __launch_bounds__(SORT_THREADS) digit_counts(const uint64_t* words, long long n, int shift,
                                                                        long long* counts) {
    __shared__ unsigned seen[DIGITS];
    if (threadIdx.x < DIGITS) {
        seen[threadIdx.x] = 0;
    }
    __syncthreads();
    long long start = (long long)blockIdx.x * SORT_TILE;
    long long end = min(n, start + SORT_TILE);
    for (long long i = start + threadIdx.x; i < end; i += SORT_THREADS) {
        atomicAdd(&seen[digitOf(words[i], shift)], 1u);
    }
    __syncthreads();
    if (threadIdx.x < DIGITS) {
        counts[(long long)threadIdx.x * gridDim.x + blockIdx.x] = seen[threadIdx.x];
    }
}

// The exclusive prefix sums of the m counts, in place, by one block: each thread sums a stretch of
// them, the stretches' sums are scanned, and each thread writes its stretch's prefixes.
extern "C" __global__ void __launch_bounds__(SCAN_THREADS) scan_counts(long long* counts, long long m) {
    __shared__ long long sums[SCAN_THREADS];
    long long stretch = (m + SCAN_THREADS - 1) / SCAN_THREADS;
    long long from = threadIdx.x * stretch;
    long long to = min(m, from + stretch);
    long long sum = 0;
    for (long long i = from; i < to; i++) {
        sum += counts[i];
    }
    sums[threadIdx.x] = sum;
    __syncthreads();
    for (int offset = 1; offset < SCAN_THREADS; offset <<= 1) {
        long long before = threadIdx.x >= offset ? sums[threadIdx.x - offset] : 0;
        __syncthreads();
        sums[threadIdx.x] += before;
        __syncthreads();
    }
    long long running = sums[threadIdx.x] - sum;
    for (long long i = from; i < to; i++) {
        long long c = counts[i];
        counts[i] = running;
        running += c;
    }
}

// Each tile's words and row indexes to their places by the digit at `shift`: the tile's rows go a
// block-wide round at a time in their order; within a round a row's place among those of its digit
// is its rank within its warp (a ballot per digit) after the earlier warps' rows of that digit.
extern "C" __global__ void __launch_bounds__(SORT_THREADS) scatter_digits(const uint64_t* words, const long long* order,
                                                                          long long n, int shift,
                                                                          const long long* firsts,
                                                                          uint64_t* outWords, long long* outOrder) {
    __shared__ long long next[DIGITS];
    __shared__ unsigned before[SORT_THREADS / 32][DIGITS];
    __shared__ unsigned inRound[DIGITS];
    const unsigned lane = threadIdx.x & 31;
    const unsigned warp = threadIdx.x >> 5;
    if (threadIdx.x < DIGITS) {
        next[threadIdx.x] = firsts[(long long)threadIdx.x * gridDim.x + blockIdx.x];
    }
    __syncthreads();
    long long start = (long long)blockIdx.x * SORT_TILE;
    for (int round = 0; round < SORT_ROUNDS && start + (long long)round * SORT_THREADS < n; round++) {
        long long i = start + (long long)round * SORT_THREADS + threadIdx.x;
        bool valid = i < n;
        uint64_t w = valid ? words[i] : 0;
        int digit = valid ? digitOf(w, shift) : DIGITS;
        unsigned rank = 0;
        for (int d = 0; d < DIGITS; d++) {
            unsigned same = __ballot_sync(FULL_WARP, digit == d);
            if (digit == d) {
                rank = __popc(same & ((1u << lane) - 1));
            }
            if (lane == 0) {
                before[warp][d] = __popc(same);
            }
        }
        __syncthreads();
        if (threadIdx.x < DIGITS) {
            unsigned running = 0;
            for (int v = 0; v < SORT_THREADS / 32; v++) {
                unsigned c = before[v][threadIdx.x];
                before[v][threadIdx.x] = running;
                running += c;
            }
            inRound[threadIdx.x] = running;
        }
        __syncthreads();
        if (valid) {
            long long place = next[digit] + before[warp][digit] + rank;
            outWords[place] = w;
            outOrder[place] = order[i];
        }
        __syncthreads();
        if (threadIdx.x < DIGITS) {
            next[threadIdx.x] += inRound[threadIdx.x];
        }
        __syncthreads();
    }
}
