package dev.starling.exec.op;

import dev.starling.exec.eval.SelectionFilter;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

/**
 * Keeps the rows whose dense foreign-key code has a row in a dense join's build side. An inner or
 * semi dense join drops the other rows anyway; testing the code in the scan, before the remaining
 * columns are read, spares reading and gathering them for rows that cannot join.
 */
public final class DenseKeyFilter extends SelectionFilter {
    /** A join's build table pushed down to the scan column {@code column} holding the probe codes. */
    public record Pushed(int column, JoinTable table) { }

    private final int column;
    private final JoinTable table;

    public DenseKeyFilter(Pushed pushed) {
        this.column = pushed.column();
        this.table = pushed.table();
    }

    @Override
    public int filter(Batch batch, int[] sel, int n) {
        Vector v = batch.column(column);
        long[] codes = v.longs();
        boolean[] nulls = v.nulls();
        int kept = 0;
        if (nulls == null) {
            for (int i = 0; i < n; i++) {
                int r = sel[i];
                sel[kept] = r;
                kept += ~table.denseRow(codes[r]) >>> 31;
            }
        } else {
            for (int i = 0; i < n; i++) {
                int r = sel[i];
                sel[kept] = r;
                kept += nulls[r] ? 0 : ~table.denseRow(codes[r]) >>> 31;
            }
        }
        return kept;
    }
}
