package dev.starling.exec.op;

import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;

/**
 * Reads one scan output column from a table's chunks into vectors: stored values, dense codes
 * ({@code CODE}), row indexes ({@code ROW_ID}), or, for a dense-coded foreign key read as
 * {@code VALUE}, the referenced table's key at each code (that table is resolved in the catalog
 * when the scan starts and its keys copied into an array; it may have grown since, but dense
 * codes stay valid).
 */
final class ColumnReader {
    private final ScanColumn.Mode mode;
    private final Column column;
    private final DataType type;
    private final StrDict dict;
    private final long[] keys;

    ColumnReader(Table table, ScanColumn sc, Catalog catalog) {
        this.mode = sc.mode();
        this.column = mode == ScanColumn.Mode.ROW_ID ? null : table.column(sc.column());
        this.type = mode == ScanColumn.Mode.VALUE ? column.type() : DataType.INTEGER;
        this.dict = mode == ScanColumn.Mode.VALUE && type.kind() == DataType.Kind.VARCHAR
                ? StrDict.of(column.dictionary()) : null;
        if (mode == ScanColumn.Mode.VALUE && column.isDenseCoded()) {
            if (catalog == null) {
                throw new IllegalStateException("scan of " + table.name() + "." + column.name()
                        + " needs the key values of " + column.denseReference().table()
                        + ": create the Executor with a Catalog");
            }
            Table dim = catalog.require(column.denseReference().table());
            this.keys = keyValues(dim.column(column.denseReference().keyColumn()));
        } else {
            if (mode == ScanColumn.Mode.CODE && !column.isDenseCoded()) {
                throw new IllegalArgumentException("CODE scan of " + table.name() + "." + column.name()
                        + ", which is not a dense-coded foreign key");
            }
            this.keys = null;
        }
    }

    DataType type() {
        return type;
    }

    /** The dictionary of a string column's values, else null. */
    StrDict dictionary() {
        return dict;
    }

    /**
     * Rows {@code offset + sel[i]} (or {@code offset + i} when {@code sel} is null; positions
     * ascend) of chunk {@code chunkIndex}, whose first row is row {@code chunkStart} of the table.
     */
    Vector read(int chunkIndex, long chunkStart, int offset, int[] sel, int n, ChunkCopier copier) {
        if (mode == ScanColumn.Mode.ROW_ID) {
            long[] longs = new long[n];
            for (int i = 0; i < n; i++) {
                longs[i] = chunkStart + offset + (sel == null ? i : sel[i]);
            }
            return Vector.ofLongs(type, longs, null);
        }
        ColumnChunk chunk = column.chunks().get(chunkIndex);
        boolean[] nulls = copier.nulls(chunk, offset, sel, n);
        if (chunk.physical() == DataType.Physical.FLOAT64) {
            return Vector.ofDoubles(copier.doubles(chunk, offset, sel, n), nulls);
        }
        long[] longs = copier.longs(chunk, offset, sel, n);
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                longs[i] = nulls != null && nulls[i] ? 0 : keys[(int) longs[i]];
            }
        }
        return new Vector(type, longs, null, nulls, dict);
    }

    /** The referenced key column as one array indexed by dense code (it is small next to a fact table). */
    private static long[] keyValues(Column keyColumn) {
        ChunkCopier copier = new ChunkCopier();
        long[] out = new long[Math.toIntExact(keyColumn.chunks().stream().mapToLong(ColumnChunk::rows).sum())];
        int at = 0;
        for (ColumnChunk c : keyColumn.chunks()) {
            System.arraycopy(copier.longs(c, 0, null, c.rows()), 0, out, at, c.rows());
            at += c.rows();
        }
        return out;
    }
}
