// The first rows of a selection in the order of one of its columns, kept on the device so that only
// they cross the link (ORDER BY ... LIMIT over rows), when the kernel wrote every row that passed:
// each row's order key, then the rows whose key reaches the threshold the host finds from counts
// of the keys' bytes (star_pipeline.cu's key_bytes), gathered column by column.
#include "order_key.cuh"
#include "place.cuh"

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
