package dev.starling.gpu.clone;

import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;

/**
 * A column as the dense codes a shared-memory table would be indexed by: a foreign key's codes, a
 * string column's dictionary codes, or an integer column's value minus its minimum; NULL takes the
 * code after the last.
 */
public record ColumnCodes(int[] codes, int cardinality) {
    /** Integer columns with more distinct codes than this are not tables a block's shared memory holds. */
    static final long MAX_CARDINALITY = 1 << 24;

    /** The codes of {@code column}; {@code referencedRows}: the rows of the table a foreign key refers to (else ignored). */
    public static ColumnCodes of(Column column, long referencedRows) {
        return of(column, referencedRows, Long.MAX_VALUE);
    }

    /** The codes of the first {@code limit} rows of {@code column} (a sample for an estimate), as {@link #of(Column, long)}. */
    public static ColumnCodes of(Column column, long referencedRows, long limit) {
        long base;
        long values;
        ColumnStats stats = column.stats();
        if (column.isDenseCoded()) {
            base = 0;
            values = referencedRows;
        } else if (column.type().kind() == DataType.Kind.VARCHAR) {
            base = 0;
            values = column.dictionary().size();
        } else if (integral(column.type()) && stats != null && stats.rows() > stats.nulls()) {
            base = stats.min();
            values = stats.max() - stats.min() + 1;
        } else {
            throw new IllegalArgumentException("column " + column.name() + " (" + column.type()
                    + ") has no dense codes: a foreign key, a string or an integer column is needed");
        }
        if (values + 1 > MAX_CARDINALITY) {
            throw new IllegalArgumentException("column " + column.name() + " has " + values + " codes, more than "
                    + MAX_CARDINALITY + " a shared-memory table could hold");
        }
        long rows = Math.min(limit, column.chunks().stream().mapToLong(ColumnChunk::rows).sum());
        int[] codes = new int[Math.toIntExact(rows)];
        int at = 0;
        boolean nulls = false;
        for (ColumnChunk chunk : column.chunks()) {
            for (int r = 0; r < chunk.rows() && at < codes.length; r++) {
                boolean isNull = chunk.isNull(r);
                nulls |= isNull;
                codes[at++] = isNull ? (int) values : (int) (chunk.getAsLong(r) - base);
            }
        }
        return new ColumnCodes(codes, (int) values + (nulls ? 1 : 0));
    }

    private static boolean integral(DataType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DATE, BOOLEAN -> true;
            default -> false;
        };
    }
}
