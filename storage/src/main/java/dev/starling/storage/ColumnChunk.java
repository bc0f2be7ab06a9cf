package dev.starling.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Up to {@link Table#CHUNK_ROWS} values of one column, off-heap. {@code nulls} holds one byte per
 * row (1 = NULL) and is {@code null} when the chunk has no NULL.
 */
public record ColumnChunk(DataType.Physical physical, int rows, MemorySegment values, MemorySegment nulls,
                          ZoneMap zoneMap) {
    /**
     * The alignment of chunk memory built in this process: whole pages of its own, which the GPU
     * backend can page-lock in place for copies without locking memory that is not the table's.
     */
    public static final long MEMORY_ALIGNMENT = 4096;

    public boolean isNull(int row) {
        return nulls != null && nulls.get(ValueLayout.JAVA_BYTE, row) != 0;
    }

    public int getInt(int row) {
        return values.getAtIndex(ValueLayout.JAVA_INT, row);
    }

    public long getLong(int row) {
        return values.getAtIndex(ValueLayout.JAVA_LONG, row);
    }

    public double getDouble(int row) {
        return values.getAtIndex(ValueLayout.JAVA_DOUBLE, row);
    }

    public byte getByte(int row) {
        return values.get(ValueLayout.JAVA_BYTE, row);
    }

    /** The stored value widened to long (not for FLOAT64). */
    public long getAsLong(int row) {
        return switch (physical) {
            case INT8 -> getByte(row);
            case INT32 -> getInt(row);
            case INT64 -> getLong(row);
            case FLOAT64 -> throw new IllegalStateException("FLOAT64 chunk read as long");
        };
    }
}
