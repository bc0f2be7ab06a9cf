package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

/** Any condition: evaluated on the selected rows only (gathering just the columns it reads), keeping the TRUE ones. */
final class ExprFilter extends SelectionFilter {
    private final VecExpr condition;
    private final int[] columns;

    ExprFilter(VecExpr condition, int[] columns) {
        this.condition = condition;
        this.columns = columns;
    }

    @Override
    public int filter(Batch batch, int[] sel, int n) {
        Vector v = condition.eval(SubBatch.of(batch, sel, n, columns));
        long[] x = v.longs();
        boolean[] nulls = v.nulls();
        int kept = 0;
        for (int i = 0; i < n; i++) {
            sel[kept] = sel[i];
            kept += nulls != null && nulls[i] ? 0 : (int) x[i];
        }
        return kept;
    }
}
