package dev.starling.gpu.pipeline;

/** Which rows a probe of a dimension lets go on; the ordinal is the probe instruction's immediate. */
enum ProbeMode {
    /** Those that find a row (INNER and SEMI joins). */
    MATCH,
    /** Those that find none (ANTI joins). */
    ANTI,
    /** Every row: one that finds none reads the dimension's row of NULLs (LEFT joins). */
    OUTER
}
