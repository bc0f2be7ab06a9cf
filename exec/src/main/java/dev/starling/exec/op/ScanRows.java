package dev.starling.exec.op;

import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
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
     * The rows are read in ascending order, chunk after chunk, then put in the order asked for.
     */
    public static Batch at(ScanNode scan, BitSet columns, long[] rows, Catalog catalog) {
        int n = rows.length;
        // each row with its place, as one number (a table's rows and a result's fit 31 bits each)
        long[] keyed = new long[n];
        for (int i = 0; i < n; i++) {
            keyed[i] = rows[i] * n + i;
        }
        java.util.Arrays.parallelSort(keyed);
        long[] ascending = new long[n];
        int[] positions = new int[n];
        for (int j = 0; j < n; j++) {
            ascending[j] = keyed[j] / n;
            positions[(int) (keyed[j] % n)] = j;
        }
        List<ScanNode.ScanColumn> scanColumns = scan.columns();
        Vector[] out = new Vector[scanColumns.size()];
        for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
            out[c] = new ColumnReader(scan.table(), scanColumns.get(c), catalog).gather(ascending).gather(positions, n);
        }
        return new Batch(out, n);
    }
}
