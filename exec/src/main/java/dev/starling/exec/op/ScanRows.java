package dev.starling.exec.op;

import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

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
     * The rows are read in ascending order, chunk after chunk, as the scan reads a chunk's
     * selected rows, then put in the order asked for.
     */
    public static Batch at(ScanNode scan, BitSet columns, long[] rows, Catalog catalog) {
        int n = rows.length;
        // each row with its place, as one number (a table's rows and a result's fit 31 bits each)
        long[] keyed = new long[n];
        for (int i = 0; i < n; i++) {
            keyed[i] = rows[i] * n + i;
        }
        java.util.Arrays.parallelSort(keyed);
        int[] positions = new int[n];
        for (int j = 0; j < n; j++) {
            positions[(int) (keyed[j] % n)] = j;
        }
        Table table = scan.table();
        ColumnReader[] readers = new ColumnReader[scan.columns().size()];
        columns.stream().forEach(c -> readers[c] = new ColumnReader(table, scan.columns().get(c), catalog));
        ChunkCopier copier = new ChunkCopier();
        List<Batch> parts = new ArrayList<>();
        int next = 0;
        long chunkStart = 0;
        for (int chunk = 0; chunk < table.chunkCount() && next < n; chunkStart += table.chunkRows(chunk++)) {
            int from = next;
            while (next < n && keyed[next] / n < chunkStart + table.chunkRows(chunk)) {
                next++;
            }
            int[] sel = new int[next - from];
            for (int k = 0; k < sel.length; k++) {
                sel[k] = (int) (keyed[from + k] / n - chunkStart);
            }
            Vector[] read = new Vector[readers.length];
            for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
                read[c] = readers[c].read(chunk, chunkStart, 0, sel, sel.length, copier);
            }
            parts.add(new Batch(read, sel.length));
        }
        return BatchBuffer.concat(scan.output(), parts).gather(positions, n);
    }
}
