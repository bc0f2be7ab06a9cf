// Sets aggregate states before a star pipeline kernel folds into them (`slots` arrays of `groups`
// 16-byte states, each slot's state starting as (its identity, 0)), and compacts them after it.
#include "fold.cuh"
#include "group_filter.cuh"
#include "place.cuh"

extern "C" __global__ void init_accumulators(uint64_t* acc, const uint64_t* identities, int slots, int groups) {
    int64_t total = (int64_t)slots * groups;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        initState(acc + i * 2, identities[i / groups]);
    }
}

// Writes each group with rows (its slot 0 counts them, so a group without is empty) that passes
// the `terms` of a HAVING condition as one record: its id, from `keys` (a hash table's key words)
// or its index when `keys` is null, then each slot's two words. Counts every such group at
// `count`, writing those below `room` (the caller runs it again with room for all when they were
// more). What comes back over the link is then the groups, not the table.
extern "C" __global__ void compact_groups(const uint64_t* acc, long long groups, int slots, const uint64_t* keys,
                                          const GroupTerm* terms, int termCount, unsigned long long* count,
                                          uint64_t* out, long long room) {
    const unsigned lane = threadIdx.x & 31;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < groups; base += (long long)gridDim.x * blockDim.x) {
        long long g = base + threadIdx.x;
        bool present = g < groups && acc[2 * g] != 0 && passesGroupFilter(acc, groups, g, terms, termCount);
        long long at = reservePlace(present, count, lane);
        if (present && at < room) {
            uint64_t* record = out + at * (1 + 2 * slots);
            record[0] = keys == nullptr ? (uint64_t)g : keys[g];
            for (int s = 0; s < slots; s++) {
                record[1 + 2 * s] = acc[(s * groups + g) * 2];
                record[2 + 2 * s] = acc[(s * groups + g) * 2 + 1];
            }
        }
    }
}

// Whether one of group `g`'s integer SUMs (the slots of `sumSlots`' bits) passed 64 bits.
__device__ __forceinline__ bool sumPassed64Bits(const uint64_t* acc, long long groups, long long g, uint64_t sumSlots) {
    for (uint64_t m = sumSlots; m != 0; m &= m - 1) {
        int s = __ffsll((long long)m) - 1;
        if (stateWord(acc, groups, s, g, 1) != signWord((long long)stateWord(acc, groups, s, g, 0))) {
            return true;
        }
    }
    return false;
}

// Writes the order key of each group with rows that passes the `terms` to `keys` (those below
// `room`; the caller runs it again with room for all when they were more), counting them at
// counts[0] and, at counts[1], those one of whose integer SUMs (the slots of `sumSlots`' bits)
// passed 64 bits: the host then reads every group. The key is slot `slot`'s state word (its
// complement for an ascending order) with its sign bit flipped: keys then compare as unsigned
// numbers in the order's sense, and the host finds the key of the n-th group a byte at a time from
// counts of their bytes (key_bytes, KeyThreshold.of), over the keys alone, not the table.
extern "C" __global__ void order_keys(const uint64_t* acc, long long groups, int slot, int descending,
                                      const GroupTerm* terms, int termCount, uint64_t sumSlots,
                                      unsigned long long* counts, uint64_t* keys, long long room) {
    const unsigned lane = threadIdx.x & 31;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < groups; base += (long long)gridDim.x * blockDim.x) {
        long long g = base + threadIdx.x;
        bool present = g < groups && acc[2 * g] != 0 && passesGroupFilter(acc, groups, g, terms, termCount);
        long long at = reservePlace(present, counts, lane);
        if (present && sumPassed64Bits(acc, groups, g, sumSlots)) {
            atomicAdd(counts + 1, 1ull);
        }
        if (present && at < room) {
            uint64_t word = stateWord(acc, groups, slot, g, 0);
            keys[at] = (descending ? word : ~word) ^ 0x8000000000000000ull;
        }
    }
}

// Counts into counts[0..255], by their byte at `shift`, the `n` keys that have the bits of `prefix`
// where `mask` has them, and folds the least and greatest of them into counts[256] and
// counts[257] (which the host sets to all ones and zero): the bytes those two share, every key
// counted has, and the host skips their rounds.
extern "C" __global__ void key_bytes(const uint64_t* keys, long long n, uint64_t prefix, uint64_t mask, int shift,
                                     unsigned long long* counts) {
    __shared__ unsigned long long local[256];
    __shared__ unsigned long long extremes[2];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        local[i] = 0;
    }
    if (threadIdx.x == 0) {
        extremes[0] = ~0ull;
        extremes[1] = 0;
    }
    __syncthreads();
    const unsigned lane = threadIdx.x & 31;
    unsigned long long least = ~0ull;
    unsigned long long greatest = 0;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < n; base += (long long)gridDim.x * blockDim.x) {
        long long i = base + threadIdx.x;
        uint64_t key = i < n ? keys[i] : 0;
        bool counted = i < n && (key & mask) == prefix;
        unsigned counting = __ballot_sync(FULL_WARP, counted);
        if (counted) {
            least = min(least, (unsigned long long)key);
            greatest = max(greatest, (unsigned long long)key);
            // the lanes of one byte add once: keys crowd into few bytes (a column's leading ones, a
            // selection's rows that failed), and one shared word's adds queue behind each other
            unsigned digit = (unsigned)(key >> shift) & 0xff;
            unsigned peers = __match_any_sync(counting, digit);
            if (lane == __ffs(peers) - 1) {
                atomicAdd(&local[digit], (unsigned long long)__popc(peers));
            }
        }
    }
    if (least <= greatest) {
        atomicMin(&extremes[0], least);
        atomicMax(&extremes[1], greatest);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        if (local[i] != 0) {
            atomicAdd(&counts[i], local[i]);
        }
    }
    if (threadIdx.x == 0 && extremes[0] <= extremes[1]) {
        atomicMin(&counts[256], extremes[0]);
        atomicMax(&counts[257], extremes[1]);
    }
}

// GroupProjection.Finish, in the order of that Java enum.
enum FinishKind { FINISH_COUNT, FINISH_SUM, FINISH_VALUE };

// Writes one aggregate call's result for each of `n` groups read back as a column a program over
// the groups reads (GroupProjection): group i's states start at word i * stride + 1 of `words`
// (records of compact_groups) or, with stride 0, at word 2 * i (states as they lie, `slotStep`
// words apart from slot to slot, a record's are 2). The result is the count of `countSlot` (a
// COUNT's, never NULL), else the low word of `valueSlot`'s state, NULL where that count is 0; an
// exact SUM past 64 bits sets `overflow` in `status`, for the CPU to report.
extern "C" __global__ void finish_groups(const uint64_t* words, long long n, int stride, long long slotStep,
                                         int countSlot, int valueSlot, int kind, long long* values, uint8_t* nulls,
                                         int* status, int overflow) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const uint64_t* states = words + (stride == 0 ? 2 * i : i * stride + 1);
        uint64_t count = states[countSlot * slotStep];
        if (kind == FINISH_COUNT) {
            values[i] = (long long)count;
            nulls[i] = 0;
            continue;
        }
        long long low = (long long)states[valueSlot * slotStep];
        values[i] = low;
        nulls[i] = count == 0;
        if (kind == FINISH_SUM && count != 0 && states[valueSlot * slotStep + 1] != signWord(low)) {
            atomicOr(status, overflow);
        }
    }
}
