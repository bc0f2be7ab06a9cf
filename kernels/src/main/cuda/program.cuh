// The bytecode a star pipeline's predicates, probes, group keys and aggregate arguments are
// compiled to (dev.starling.gpu.pipeline.Opcode lists the same opcodes in the same order). Every
// thread interprets the same instructions, so the interpreter's branches never diverge by opcode.
#pragma once
#include "pipeline.cuh"

enum Opcode {
    OP_LOAD_FACT, OP_LOAD_DIM, OP_CONST, OP_CONST_NULL, OP_PROBE, OP_FILTER, OP_GROUP_KEY,
    OP_ADD, OP_SUB, OP_MUL, OP_NEG, OP_SCALE_UP, OP_SCALE_DOWN, OP_MUL_DOWN,
    OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV, OP_FNEG, OP_I2F, OP_F2I,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_FEQ, OP_FNE, OP_FLT, OP_FLE, OP_FGT, OP_FGE,
    OP_AND, OP_OR, OP_NOT, OP_IS_NULL, OP_IS_NOT_NULL, OP_IS_TRUE, OP_IS_FALSE, OP_IS_NOT_TRUE, OP_IS_NOT_FALSE,
    OP_SELECT, OP_CHECK_INT, OP_COALESCE
};

// A row's registers: 64-bit values (doubles as their bits) and one NULL bit per register.
struct Registers {
    int64_t v[MAX_REGISTERS];
    uint64_t nulls;

    __device__ bool isNull(int r) const { return (nulls >> r) & 1ull; }
    __device__ void set(int r, int64_t value, bool null) {
        v[r] = null ? 0 : value;  // a NULL's value is 0, so arithmetic on it cannot overflow
        nulls = null ? (nulls | (1ull << r)) : (nulls & ~(1ull << r));
    }
    __device__ double f(int r) const { return __longlong_as_double(v[r]); }
    __device__ void setF(int r, double value, bool null) { set(r, __double_as_longlong(value), null); }
    // SQL truth: TRUE only for a non-NULL non-zero value.
    __device__ bool isTrue(int r) const { return !isNull(r) && v[r] != 0; }
    __device__ bool isFalse(int r) const { return !isNull(r) && v[r] == 0; }
};

struct Program {
    const Instr* code;
    int length;
    const Column* columns;
    const Dimension* dimensions;
    const Column* dimColumns;
    const int64_t* constants;
    int* status;
};

__device__ __forceinline__ void fail(const Program& p, int why) { atomicOr(p.status, why); }

__device__ __forceinline__ int64_t pow10(int k) {
    int64_t r = 1;
    for (int i = 0; i < k; i++) r *= 10;
    return r;
}

__device__ __forceinline__ int64_t checkedAdd(const Program& p, int64_t a, int64_t b) {
    int64_t r = (int64_t)((uint64_t)a + (uint64_t)b);
    if (((a ^ r) & (b ^ r)) < 0) fail(p, STATUS_OVERFLOW);
    return r;
}

__device__ __forceinline__ int64_t checkedMul(const Program& p, int64_t a, int64_t b) {
    int64_t r = (int64_t)((uint64_t)a * (uint64_t)b);
    if (__mul64hi(a, b) != (r >> 63)) fail(p, STATUS_OVERFLOW);
    return r;
}

// a / b rounded half away from zero (b > 0), as the CPU backend rounds decimals.
__device__ __forceinline__ int64_t divideRound(int64_t a, int64_t b) {
    int64_t q = a / b;
    int64_t r = a % b;
    int64_t ar = r < 0 ? -r : r;
    if (r != 0 && ar >= b - ar) q += a < 0 ? -1 : 1;
    return q;
}

__device__ __forceinline__ int64_t roundHalfAway(const Program& p, double x) {
    if (isnan(x) || fabs(x) >= 9.2e18) {
        fail(p, STATUS_OVERFLOW);
        return 0;
    }
    return x < 0 ? -(int64_t)llround(-x) : (int64_t)llround(x);
}

__device__ __forceinline__ int64_t loadColumn(const Column& c, int64_t i, bool& null) {
    null = c.nulls != nullptr && c.nulls[i] != 0;
    switch (c.width) {
        case 1: return ((const int8_t*)c.values)[i];
        case 4: return ((const int32_t*)c.values)[i];
        default: return ((const int64_t*)c.values)[i];
    }
}

__device__ __forceinline__ bool compareInt(int op, int64_t x, int64_t y) {
    switch (op) {
        case OP_EQ: return x == y;
        case OP_NE: return x != y;
        case OP_LT: return x < y;
        case OP_LE: return x <= y;
        case OP_GT: return x > y;
        default: return x >= y;
    }
}

__device__ __forceinline__ bool compareDouble(int op, double x, double y) {
    switch (op) {
        case OP_FEQ: return x == y;
        case OP_FNE: return x != y;
        case OP_FLT: return x < y;
        case OP_FLE: return x <= y;
        case OP_FGT: return x > y;
        default: return x >= y;
    }
}

// Three-valued AND / OR: FALSE (AND) or TRUE (OR) wins over NULL.
__device__ __forceinline__ void logic(Registers& r, int op, int dst, int a, int b) {
    bool dominant = op == OP_AND ? (r.isFalse(a) || r.isFalse(b)) : (r.isTrue(a) || r.isTrue(b));
    if (dominant) {
        r.set(dst, op == OP_AND ? 0 : 1, false);
    } else if (r.isNull(a) || r.isNull(b)) {
        r.set(dst, 0, true);
    } else {
        r.set(dst, op == OP_AND ? 1 : 0, false);
    }
}

// Runs the program over one row. Returns false as soon as the row is rejected (a filter that is
// not TRUE, a probe that finds no dimension row); otherwise `group` holds the row's group id.
__device__ bool runProgram(const Program& p, int64_t row, Registers& r, int64_t& group) {
    r.nulls = 0;
    group = 0;
    for (int pc = 0; pc < p.length; pc++) {
        const Instr in = p.code[pc];
        const int op = in.op & 0xff;
        const int imm = in.op >> 8;
        const int d = in.dst, a = in.a, b = in.b;
        switch (op) {
            case OP_LOAD_FACT: {
                bool null;
                int64_t v = loadColumn(p.columns[a], row, null);
                r.set(d, v, null);
                break;
            }
            case OP_LOAD_DIM: {
                // The code comes from a probe that found a row, so it is in range and not NULL.
                bool null;
                int64_t v = loadColumn(p.dimColumns[a], r.v[b], null);
                r.set(d, v, null);
                break;
            }
            case OP_CONST: r.set(d, p.constants[a], false); break;
            case OP_CONST_NULL: r.set(d, 0, true); break;
            case OP_PROBE: {
                if (r.isNull(a)) return false;
                const Dimension dim = p.dimensions[b];
                int64_t code = r.v[a];
                if (code < 0 || code >= dim.range) {
                    fail(p, STATUS_BAD_CODE);
                    return false;
                }
                int32_t c = dim.contribution[code];
                if (c < 0) return false;
                group += c;
                break;
            }
            case OP_FILTER:
                if (!r.isTrue(a)) return false;
                break;
            case OP_GROUP_KEY: {
                int64_t min = p.constants[b], range = p.constants[b + 1], multiplier = p.constants[b + 2];
                int64_t component = r.isNull(a) ? range : r.v[a] - min;
                if (component < 0 || component > range) {
                    fail(p, STATUS_BAD_CODE);
                    return false;
                }
                group += component * multiplier;
                break;
            }
            case OP_ADD: r.set(d, checkedAdd(p, r.v[a], r.v[b]), r.isNull(a) || r.isNull(b)); break;
            case OP_SUB:
                if (r.v[b] == INT64_MIN) fail(p, STATUS_OVERFLOW);
                r.set(d, checkedAdd(p, r.v[a], -r.v[b]), r.isNull(a) || r.isNull(b));
                break;
            case OP_MUL: r.set(d, checkedMul(p, r.v[a], r.v[b]), r.isNull(a) || r.isNull(b)); break;
            case OP_NEG: r.set(d, -r.v[a], r.isNull(a)); break;
            case OP_SCALE_UP: r.set(d, checkedMul(p, r.v[a], pow10(imm)), r.isNull(a)); break;
            case OP_SCALE_DOWN: r.set(d, divideRound(r.v[a], pow10(imm)), r.isNull(a)); break;
            case OP_MUL_DOWN: {
                // The CPU backend widens a product past 64 bits before rounding; here that is rare
                // enough to hand the whole pipeline back to it.
                int64_t v = checkedMul(p, r.v[a], r.v[b]);
                r.set(d, divideRound(v, pow10(imm)), r.isNull(a) || r.isNull(b));
                break;
            }
            case OP_FADD: r.setF(d, r.f(a) + r.f(b), r.isNull(a) || r.isNull(b)); break;
            case OP_FSUB: r.setF(d, r.f(a) - r.f(b), r.isNull(a) || r.isNull(b)); break;
            case OP_FMUL: r.setF(d, r.f(a) * r.f(b), r.isNull(a) || r.isNull(b)); break;
            case OP_FDIV: {
                bool null = r.isNull(a) || r.isNull(b);
                if (!null && r.f(b) == 0.0) fail(p, STATUS_DIVIDE_BY_ZERO);
                r.setF(d, null ? 0.0 : r.f(a) / r.f(b), null);
                break;
            }
            case OP_FNEG: r.setF(d, -r.f(a), r.isNull(a)); break;
            case OP_I2F: r.setF(d, (double)r.v[a] / (double)pow10(imm), r.isNull(a)); break;
            case OP_F2I: r.set(d, r.isNull(a) ? 0 : roundHalfAway(p, r.f(a) * (double)pow10(imm)), r.isNull(a)); break;
            case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
                r.set(d, compareInt(op, r.v[a], r.v[b]), r.isNull(a) || r.isNull(b));
                break;
            case OP_FEQ: case OP_FNE: case OP_FLT: case OP_FLE: case OP_FGT: case OP_FGE:
                r.set(d, compareDouble(op, r.f(a), r.f(b)), r.isNull(a) || r.isNull(b));
                break;
            case OP_AND: case OP_OR: logic(r, op, d, a, b); break;
            case OP_NOT: r.set(d, r.v[a] == 0, r.isNull(a)); break;
            case OP_IS_NULL: r.set(d, r.isNull(a), false); break;
            case OP_IS_NOT_NULL: r.set(d, !r.isNull(a), false); break;
            case OP_IS_TRUE: r.set(d, r.isTrue(a), false); break;
            case OP_IS_FALSE: r.set(d, r.isFalse(a), false); break;
            case OP_IS_NOT_TRUE: r.set(d, !r.isTrue(a), false); break;
            case OP_IS_NOT_FALSE: r.set(d, !r.isFalse(a), false); break;
            case OP_SELECT: {
                int from = r.isTrue(imm) ? a : b;
                r.set(d, r.v[from], r.isNull(from));
                break;
            }
            case OP_CHECK_INT:
                if (!r.isNull(a) && (r.v[a] < INT32_MIN || r.v[a] > INT32_MAX)) fail(p, STATUS_OVERFLOW);
                break;
            case OP_COALESCE: {
                int from = r.isNull(a) ? b : a;
                r.set(d, r.v[from], r.isNull(from));
                break;
            }
        }
    }
    return true;
}
