// Order keys: a row's or group's place in an ORDER BY as one 64-bit word that compares as an
// unsigned number, greater the earlier the row comes, so that the first rows of many are found by
// counting key bytes (a radix select) instead of sorting.
#pragma once
#include "types.cuh"

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
