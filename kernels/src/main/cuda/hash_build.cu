// Builds a hashed dimension's join table on the GPU from its build rows' keys, in the layout the
// pipeline kernels probe (probe.cuh: HashSlots of key and row, a negative row marking an empty
// slot) and DimensionHashTable lays out on the host; which slot a key lands in depends on the
// order the threads claim them, which the probes do not. A key word holds EMPTY_KEY until claimed,
// so a key equal to it cannot be inserted: the build reports it (KEY_IS_MARKER) and the host builds
// the table instead, as it does for a full table (TABLE_FULL, which sizing at most half full rules
// out); a key met twice (KEY_REPEATS) would make the join multiply rows.
#include "hash.cuh"
#include "structs.cuh"

#define EMPTY_KEY 0x8000000000000000ull
#define KEY_REPEATS 1
#define KEY_IS_MARKER 2
#define TABLE_FULL 4

// Every slot free: key EMPTY_KEY, row -1.
extern "C" __global__ void init_hash_slots(HashSlot* slots, long long count) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x; s < count; s += stride) {
        slots[s].key = (long long)EMPTY_KEY;
        slots[s].row = -1;
    }
}

// Inserts keys[r] with row r for every r < rows whose key is not NULL (`nulls` null: none is), in
// a table of 2^(64 - shift) slots at most half full; failures set bits of *status.
extern "C" __global__ void build_hash_table(const long long* keys, const uint8_t* nulls, long long rows,
                                            HashSlot* slots, int shift, int* status) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
        if (nulls != nullptr && nulls[r] != 0) {
            continue;
        }
        unsigned long long key = (unsigned long long)keys[r];
        if (key == EMPTY_KEY) {
            atomicOr(status, KEY_IS_MARKER);
            continue;
        }
        bool claimed;
        long long s = claimSlot<2>((unsigned long long*)&slots[0].key, shift, key, EMPTY_KEY, &claimed);
        if (s < 0) {
            atomicOr(status, TABLE_FULL);
        } else if (claimed) {
            slots[s].row = r;
        } else {
            atomicOr(status, KEY_REPEATS);
        }
    }
}
