// Structures the host writes byte for byte (dev.starling.gpu.pipeline.StarAggregateRun),
// little-endian: keep both sides in step.
#pragma once
#include <stdint.h>

// An aggregate slot: what it folds (kind), the register it folds, and the register of a filter
// that must be TRUE for the row to count (-1: none). Every slot owns two 64-bit words per group.
struct AggSlot {
    int32_t kind;
    int32_t reg;
    int32_t filter;
    int32_t pad;
};

// In the order of dev.starling.gpu.pipeline.AggKind.
enum AggKind { AGG_COUNT = 0, AGG_SUM_I = 1, AGG_SUM_F = 2, AGG_MIN_I = 3, AGG_MAX_I = 4, AGG_MIN_F = 5, AGG_MAX_F = 6 };
