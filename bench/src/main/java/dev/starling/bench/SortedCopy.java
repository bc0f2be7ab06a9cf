package dev.starling.bench;

import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A copy of some number and date columns of a table with its rows in the order of one of them (a
 * date, say, as a table loaded day by day is), so that a range of that column lies in few chunks
 * and zone maps can skip the rest: TPC-H's lineitem by ship date for Q6.
 */
final class SortedCopy {
    private SortedCopy() { }

    /** {@code columns} of {@code source} (none a string), as table {@code name}, rows ordered by the first (no NULLs). */
    static Table of(Table source, String name, List<String> columns, Catalog catalog) {
        List<Column> read = columns.stream().map(source::column).toList();
        long[] keys = values(read.get(0), source.rowCount());
        int[] order = countingOrder(keys);
        List<ColumnSchema> schema = new ArrayList<>();
        List<long[]> values = new ArrayList<>();
        for (Column c : read) {
            if (c.type().kind() == DataType.Kind.VARCHAR || c.type().kind() == DataType.Kind.DOUBLE) {
                throw new IllegalArgumentException("a sorted copy takes integer, decimal and date columns, not " + c.name());
            }
            schema.add(new ColumnSchema(c.name(), c.type(), false));
            values.add(c == read.get(0) ? keys : values(c, source.rowCount()));
        }
        TableBuilder b = new TableBuilder(new TableSchema(name, schema, List.of(), List.of()), catalog);
        for (int row : order) {
            for (int c = 0; c < values.size(); c++) {
                b.setLong(c, values.get(c)[row]);
            }
            b.endRow();
        }
        return b.build();
    }

    /** The rows' order by {@code keys}, ties in row order: a counting sort, the keys spanning few values (days). */
    private static int[] countingOrder(long[] keys) {
        long min = Arrays.stream(keys).min().orElse(0);
        long span = Arrays.stream(keys).max().orElse(0) - min + 1;
        if (span > 1 << 24) {
            throw new IllegalArgumentException("a sorted copy orders by a column of at most 2^24 values, not " + span);
        }
        int[] starts = new int[(int) span + 1];
        for (long k : keys) {
            starts[(int) (k - min) + 1]++;
        }
        Arrays.parallelPrefix(starts, Integer::sum);
        int[] order = new int[keys.length];
        for (int r = 0; r < keys.length; r++) {
            order[starts[(int) (keys[r] - min)]++] = r;
        }
        return order;
    }

    /** The stored values of {@code column}, every row, widened to long. */
    private static long[] values(Column column, long rows) {
        long[] out = new long[Math.toIntExact(rows)];
        int at = 0;
        for (ColumnChunk chunk : column.chunks()) {
            for (int r = 0; r < chunk.rows(); r++) {
                if (chunk.isNull(r)) {
                    throw new IllegalArgumentException(column.name() + " has NULLs");
                }
                out[at++] = chunk.getAsLong(r);
            }
        }
        return out;
    }
}
