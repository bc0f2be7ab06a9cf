package dev.starling.exec.op;

import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * A scan's output at chosen rows of its table, read as the scan reads them ({@link ColumnReader}),
 * without its filter: for reading back the few rows a result names (the groups of a dimension
 * built on the GPU name its rows) rather than scanning the table.
 */
public final class ScanRows {
    private ScanRows() { }

    /**
     * The scan's output columns in {@code columns} at table rows {@code rows} (in that order; the
     * other columns null); {@code catalog} resolves the tables whose keys a foreign key's values are.
     * The rows are sorted, then each chunk's read as the scan reads a chunk's selected rows, the
     * chunks in parallel, each value put straight at the place it was asked for.
     */
    public static Batch at(ScanNode scan, BitSet columns, long[] rows, Catalog catalog) {
        int n = rows.length;
        // each row with its place, as one number: the row in the high half, the place in the low (both fit 31 bits)
        Table table = scan.table();
        long[] keyed = new long[n];
        for (int i = 0; i < n; i++) {
            if (rows[i] < 0 || rows[i] >= table.rowCount()) {
                throw new IndexOutOfBoundsException("row " + rows[i] + " of " + table.name() + ", which has "
                        + table.rowCount());
            }
            keyed[i] = rows[i] << 32 | i;
        }
        java.util.Arrays.parallelSort(keyed);
        int chunks = table.chunkCount();
        long[] chunkStart = new long[chunks + 1];
        int[] firstAsked = new int[chunks + 1];
        for (int chunk = 0, next = 0; chunk < chunks; chunk++) {
            chunkStart[chunk + 1] = chunkStart[chunk] + table.chunkRows(chunk);
            while (next < n && keyed[next] >>> 32 < chunkStart[chunk + 1]) {
                next++;
            }
            firstAsked[chunk + 1] = next;
        }
        int width = scan.columns().size();
        ColumnReader[] readers = new ColumnReader[width];
        long[][] longs = new long[width][];
        double[][] doubles = new double[width][];
        boolean[][] nulls = new boolean[width][];
        boolean[] anyNull = new boolean[width];
        for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
            readers[c] = new ColumnReader(table, scan.columns().get(c), catalog);
            if (scan.output().get(c).type().kind() == DataType.Kind.DOUBLE) {
                doubles[c] = new double[n];
            } else {
                longs[c] = new long[n];
            }
            nulls[c] = new boolean[n];
        }
        IntStream.range(0, chunks).parallel().filter(chunk -> firstAsked[chunk + 1] > firstAsked[chunk]).forEach(chunk -> {
            int from = firstAsked[chunk];
            int[] sel = new int[firstAsked[chunk + 1] - from];
            for (int k = 0; k < sel.length; k++) {
                sel[k] = (int) ((keyed[from + k] >>> 32) - chunkStart[chunk]);
            }
            ChunkCopier copier = new ChunkCopier();
            for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
                Vector read = readers[c].read(chunk, chunkStart[chunk], 0, sel, sel.length, copier);
                for (int k = 0; k < sel.length; k++) {
                    int place = (int) keyed[from + k];
                    if (doubles[c] != null) {
                        doubles[c][place] = read.doubles()[k];
                    } else {
                        longs[c][place] = read.longs()[k];
                    }
                }
                if (read.nulls() != null) {
                    anyNull[c] = true;
                    for (int k = 0; k < sel.length; k++) {
                        nulls[c][(int) keyed[from + k]] = read.nulls()[k];
                    }
                }
            }
        });
        Vector[] out = new Vector[width];
        for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
            out[c] = new Vector(scan.output().get(c).type(), longs[c], doubles[c], anyNull[c] ? nulls[c] : null,
                    readers[c].dictionary());
        }
        return new Batch(out, n);
    }
}
