// The conjuncts of a HAVING condition that the GPU applies to an aggregation's groups before they
// come back (GroupFilter on the host): each term compares a group's count, or an exact SUM, MIN or
// MAX state, with a constant at the state's scale. A NULL aggregate (no value counted) fails its
// term; a SUM past 64 bits passes it, and so does a value of magnitude past the term's passBeyond
// (which a widening CAST in the comparison would take past 64 bits), so that the host reads the
// group back and reports the overflow.
#pragma once
#include "fold.cuh"
#include "structs.cuh"

// GroupFilter.Kind and GroupFilter.Comparison, in the order of those Java enums.
enum GroupTermKind { TERM_COUNT, TERM_SUM, TERM_EXTREME };
enum GroupComparison { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

__device__ __forceinline__ bool compareWith(long long v, int comparison, long long c) {
    switch (comparison) {
        case CMP_EQ: return v == c;
        case CMP_NE: return v != c;
        case CMP_LT: return v < c;
        case CMP_LE: return v <= c;
        case CMP_GT: return v > c;
        default: return v >= c;
    }
}

// Word `w` of slot `slot`'s state of group `g`, states laid out slot after slot (`groups` each).
__device__ __forceinline__ uint64_t stateWord(const uint64_t* acc, long long groups, int slot, long long g, int w) {
    return acc[((long long)slot * groups + g) * 2 + w];
}

__device__ __forceinline__ bool comparedOrBeyond(long long v, const GroupTerm& t) {
    return v > t.passBeyond || v < -t.passBeyond || compareWith(v, t.comparison, t.constant);
}

__device__ __forceinline__ bool passesTerm(const uint64_t* acc, long long groups, long long g, const GroupTerm& t) {
    long long count = (long long)stateWord(acc, groups, t.countSlot, g, 0);
    if (t.kind == TERM_COUNT) {
        return comparedOrBeyond(count, t);
    }
    if (count == 0) {
        return false;
    }
    long long low = (long long)stateWord(acc, groups, t.valueSlot, g, 0);
    if (t.kind == TERM_SUM && stateWord(acc, groups, t.valueSlot, g, 1) != signWord(low)) {
        return true;
    }
    return comparedOrBeyond(low, t);
}

// Whether group `g` passes every one of the `count` terms (none: every group does).
__device__ __forceinline__ bool passesGroupFilter(const uint64_t* acc, long long groups, long long g,
                                                  const GroupTerm* terms, int count) {
    for (int i = 0; i < count; i++) {
        if (!passesTerm(acc, groups, g, terms[i])) {
            return false;
        }
    }
    return true;
}
