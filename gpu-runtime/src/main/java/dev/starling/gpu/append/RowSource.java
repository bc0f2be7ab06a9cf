package dev.starling.gpu.append;

import java.lang.foreign.MemorySegment;

/** Where appended rows come from: it writes a run of one column's rows into a batch's slot. */
@FunctionalInterface
public interface RowSource {
    /**
     * Writes column {@code column}'s rows {@code from} to {@code from + rows} (counted from the
     * first row of the append) into {@code values}, {@code rows} times the column's width, and
     * their NULL flags into {@code nulls} (one byte a row, 1 = NULL) when it is not null.
     */
    void write(int column, long from, long rows, MemorySegment values, MemorySegment nulls);
}
