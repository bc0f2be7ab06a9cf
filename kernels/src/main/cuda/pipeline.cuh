// Structures a star pipeline is described by. The host writes them byte for byte
// (dev.starling.gpu.pipeline.PipelineImage), little-endian: keep both sides in step.
#pragma once
#include <stdint.h>

// One bytecode instruction: opcode in the low 8 bits of op, an immediate in the high 24.
struct Instr {
    int32_t op;
    int32_t dst;
    int32_t a;
    int32_t b;
};

// A column: values of `width` bytes (1, 4 or 8; sign-extended when loaded), indexed by row for a
// fact column and by code for a dimension column; nulls: one byte per value (1 = NULL), or 0 when
// the column has none.
struct Column {
    const void* values;
    const uint8_t* nulls;
    int32_t width;
    int32_t pad;
};

// A dimension reached through a dense foreign key: per code, the group-id contribution of the
// dimension row with that code, or -1 when no row with that code passed the dimension's filters.
struct Dimension {
    const int32_t* contribution;
    int64_t range;
};

// An aggregate slot: what it folds (kind), the register it folds, and the register of a filter
// that must be TRUE for the row to count (-1: none). Every slot owns two 64-bit words per group.
struct AggSlot {
    int32_t kind;
    int32_t reg;
    int32_t filter;
    int32_t pad;
};

enum AggKind { AGG_COUNT = 0, AGG_SUM_I = 1, AGG_SUM_F = 2, AGG_MIN_I = 3, AGG_MAX_I = 4, AGG_MIN_F = 5, AGG_MAX_F = 6 };

// Reasons a kernel gives up on its input; the host then runs the pipeline on the CPU, which
// computes the exact answer or raises the matching SQL error.
enum Status { STATUS_OVERFLOW = 1, STATUS_DIVIDE_BY_ZERO = 2, STATUS_BAD_CODE = 4 };

#define MAX_REGISTERS 64
