package dev.starling.exec.pipeline;

import dev.starling.exec.vector.Batch;

/**
 * A hash join's build side that the accelerator built once, for itself and for the CPU workers it
 * shares an aggregation with: Lutz's thesis' shared table for large build sides (§3.5.2), one table in
 * host memory that both processors probe, instead of a copy each. Its keys are unique (the
 * accelerator shares no other table) and of one integer, date or decimal representation on both
 * sides of the join, so a probe key as the CPU's join encodes it is the value the table holds.
 * The CPU side closes it once both processors are done.
 */
public interface SharedBuild extends AutoCloseable {
    /** The build plan's rows, every column, in the order the table's row numbers count. */
    Batch rows();

    /** The row whose key is {@code key}, or -1 when no row has it. */
    int rowOf(long key);

    @Override
    void close();
}
