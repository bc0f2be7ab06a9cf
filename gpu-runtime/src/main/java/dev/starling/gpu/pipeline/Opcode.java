package dev.starling.gpu.pipeline;

/**
 * The instructions of a star pipeline program, which {@link RowProgramSource} translates to CUDA C
 * (the ordinal is the opcode). Operands: {@code dst}, {@code a}, {@code b} (registers unless
 * noted) and a 24-bit immediate. Every instruction writes a register of its own.
 */
enum Opcode {
    /** dst = fact column a at the row. */
    LOAD_FACT,
    /** dst = the row's index in the fact table (its row id). */
    LOAD_ROW,
    /** dst = dimension column a at the code in register b. */
    LOAD_DIM,
    /** dst = the key that foreign key a's code in register b points at (the referenced table's key column at the code). */
    LOAD_KEY,
    /**
     * dst = string predicate a's answer (TRUE, FALSE or NULL) for the string whose code is in b,
     * its entry past the dictionary's where b is NULL; with imm 1, a group key's answer, the rank
     * of its value (never NULL).
     */
    LOAD_ANSWER,
    /** dst = constant a. */
    CONST,
    /** dst = NULL. */
    CONST_NULL,
    /**
     * Rejects the row unless dimension b has a row at the code in a; adds that row's group
     * contribution. With imm 1 (an ANTI join) the opposite: rejects the row where the dimension
     * has one, and adds nothing. With imm 2 (a LEFT join) rejects none: dst = the code, or, where
     * the dimension has no row there, that of its last row, its row of NULLs ({@link ProbeMode}).
     */
    PROBE,
    /**
     * Rejects the row unless dimension b's hash table has a row whose key is the value in a; dst =
     * that row's index; adds the row's group contribution. With imm 1 (an ANTI join) rejects the
     * row where the table has one, and adds nothing; with imm 2 (a LEFT join) rejects none: a row
     * the table has none for gets the dimension's last row, its row of NULLs ({@link ProbeMode}).
     */
    PROBE_HASH,
    /** Rejects the row unless a is TRUE. */
    FILTER,
    /** Adds (a - constant b) * constant b+2 to the group id; NULL counts as constant b+1. */
    GROUP_KEY,
    ADD, SUB, MUL, NEG, ABS,
    /** dst = a * 10^imm, dst = a / 10^imm rounded half away from zero, dst = a * b / 10^imm rounded. */
    SCALE_UP, SCALE_DOWN, MUL_DOWN,
    /** dst = a * 10^imm / b rounded half away from zero; dst = a / b truncated; dst = a % b. */
    DIV, IDIV, MOD,
    FADD, FSUB, FMUL, FDIV, FNEG, FABS,
    /** dst = a field of the date in a: imm is the field's EXTRACT_* op's distance from EXTRACT_YEAR in Call.Op. */
    EXTRACT,
    /** dst = the date in a plus b months, the day clamped to the month's length. */
    ADD_MONTHS,
    /** dst = a / 10^imm as a double; dst = a * 10^imm rounded half away to a long. */
    I2F, F2I,
    EQ, NE, LT, LE, GT, GE,
    FEQ, FNE, FLT, FLE, FGT, FGE,
    AND, OR, NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE,
    /** dst = register imm TRUE ? a : b. */
    SELECT,
    /** Gives the pipeline back to the CPU when a is outside the 32-bit range. */
    CHECK_INT,
    /** Gives the pipeline back to the CPU when a, unscaled, reaches 10^imm in magnitude (a DECIMAL(imm, s)'s range). */
    CHECK_DIGITS,
    /** dst = a unless NULL, else b. */
    COALESCE
}
