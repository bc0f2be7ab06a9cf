// The first rows of a selection in the order of one of its columns, kept on the device so that only
// they cross the link (ORDER BY ... LIMIT over rows): each row's order key, then the rows whose key
// reaches the threshold the host finds from counts of the keys' bytes (star_pipeline.cu's
// key_bytes), gathered column by column.
#include "place.cuh"

// A 64-bit value as a key that compares as an unsigned number in the order's sense: greater the
// earlier its row comes. A double's bits order like signed integers once a negative one's
// magnitude bits are flipped; -0.0 takes 0.0's key and every NaN one key, so that rows the host's
// sort may hold equal tie here and are kept together. An ascending order takes the complement; the
// sign bit flipped makes signed order unsigned.
__device__ __forceinline__ uint64_t orderKey(uint64_t value, bool descending, bool floating) {
    long long v = (long long)value;
    if (floating) {
        if ((value & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) {
            v = 0x7ff8000000000000ll;
        } else if (value == 0x8000000000000000ull) {
            v = 0;
        } else if (v < 0) {
            v ^= 0x7fffffffffffffffll;
        }
    }
    uint64_t key = descending ? (uint64_t)v : ~(uint64_t)v;
    return key ^ 0x8000000000000000ull;
}

extern "C" __global__ void row_order_keys(const uint64_t* values, long long n, int descending, int floating,
                                          uint64_t* keys) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        keys[i] = orderKey(values[i], descending != 0, floating != 0);
    }
}

// The indexes of the rows whose key is at least `threshold`, at kept[0..*count), in no order.
extern "C" __global__ void keep_rows(const uint64_t* keys, long long n, uint64_t threshold,
                                     unsigned long long* count, long long* kept) {
    const unsigned lane = threadIdx.x & 31;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < n; base += (long long)gridDim.x * blockDim.x) {
        long long i = base + threadIdx.x;
        bool keep = i < n && keys[i] >= threshold;
        long long at = reservePlace(keep, count, lane);
        if (keep) {
            kept[at] = i;
        }
    }
}

// One output column's values (8 bytes) and, where `nulls` is not null, NULL flags of the kept rows.
extern "C" __global__ void gather_rows(const uint64_t* values, const unsigned char* nulls, const long long* kept,
                                       long long m, uint64_t* outValues, unsigned char* outNulls) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
        long long row = kept[i];
        outValues[i] = values[row];
        if (nulls != nullptr) {
            outNulls[i] = nulls[row];
        }
    }
}
