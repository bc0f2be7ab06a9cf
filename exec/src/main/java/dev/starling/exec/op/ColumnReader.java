package dev.starling.exec.op;

import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads one scan output column from a table's chunks into vectors: stored values, dense codes
 * ({@code CODE}), row indexes ({@code ROW_ID}), or, for a dense-coded foreign key read as
 * {@code VALUE}, the referenced table's key at each code (that table is resolved in the catalog
 * when the scan starts; it may have grown since, but dense codes stay valid).
 */
final class ColumnReader {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final ScanColumn.Mode mode;
    private final Column column;
    private final DataType type;
    private final StrDict dict;
    private final ColumnChunk[] keyChunks;

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
            this.keyChunks = dim.column(column.denseReference().keyColumn()).chunks().toArray(ColumnChunk[]::new);
        } else {
            if (mode == ScanColumn.Mode.CODE && !column.isDenseCoded()) {
                throw new IllegalArgumentException("CODE scan of " + table.name() + "." + column.name()
                        + ", which is not a dense-coded foreign key");
            }
            this.keyChunks = null;
        }
    }

    DataType type() {
        return type;
    }

    /**
     * Rows {@code offset + sel[i]} (or {@code offset + i} when {@code sel} is null) of chunk
     * {@code chunkIndex}, whose first row is row {@code chunkStart} of the table.
     */
    Vector read(int chunkIndex, long chunkStart, int offset, int[] sel, int n) {
        long[] longs;
        if (mode == ScanColumn.Mode.ROW_ID) {
            longs = new long[n];
            for (int i = 0; i < n; i++) {
                longs[i] = chunkStart + offset + (sel == null ? i : sel[i]);
            }
            return Vector.ofLongs(type, longs, null);
        }
        ColumnChunk chunk = column.chunks().get(chunkIndex);
        boolean[] nulls = nulls(chunk, offset, sel, n);
        MemorySegment seg = chunk.values();
        if (chunk.physical() == DataType.Physical.FLOAT64) {
            double[] d = new double[n];
            if (sel == null) {
                MemorySegment.copy(seg, DOUBLE, (long) offset * 8, d, 0, n);
            } else {
                for (int i = 0; i < n; i++) {
                    d[i] = seg.getAtIndex(DOUBLE, offset + sel[i]);
                }
            }
            return Vector.ofDoubles(d, nulls);
        }
        longs = new long[n];
        switch (chunk.physical()) {
            case INT64 -> {
                if (sel == null) {
                    MemorySegment.copy(seg, LONG, (long) offset * 8, longs, 0, n);
                } else {
                    for (int i = 0; i < n; i++) {
                        longs[i] = seg.getAtIndex(LONG, offset + sel[i]);
                    }
                }
            }
            case INT32 -> {
                for (int i = 0; i < n; i++) {
                    longs[i] = seg.getAtIndex(INT, offset + (sel == null ? i : sel[i]));
                }
            }
            case INT8 -> {
                for (int i = 0; i < n; i++) {
                    longs[i] = seg.get(ValueLayout.JAVA_BYTE, offset + (sel == null ? i : sel[i]));
                }
            }
            default -> throw new IllegalStateException("unexpected physical type " + chunk.physical());
        }
        if (keyChunks != null) {
            gatherKeys(longs, nulls, n);
        }
        return new Vector(type, longs, null, nulls, dict);
    }

    /** Replaces dense codes by the referenced key values (all referenced chunks but the last are full). */
    private void gatherKeys(long[] codes, boolean[] nulls, int n) {
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int code = (int) codes[i];
            ColumnChunk k = keyChunks[code >>> dev.starling.storage.Table.CHUNK_SHIFT];
            codes[i] = k.getAsLong(code & (dev.starling.storage.Table.CHUNK_ROWS - 1));
        }
    }

    private static boolean[] nulls(ColumnChunk chunk, int offset, int[] sel, int n) {
        MemorySegment ns = chunk.nulls();
        if (ns == null) {
            return null;
        }
        boolean[] out = new boolean[n];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            out[i] = ns.get(ValueLayout.JAVA_BYTE, offset + (sel == null ? i : sel[i])) != 0;
            any |= out[i];
        }
        return any ? out : null;
    }
}
