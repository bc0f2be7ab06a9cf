package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * Three-valued AND / OR. Each further argument is evaluated only on the rows whose outcome is still
 * open (not yet FALSE for AND, not yet TRUE for OR), which is both faster and keeps errors of a
 * guarded expression ({@code x <> 0 AND y / x > 1}) from surfacing.
 */
final class AndOrEval extends VecExpr {
    private final boolean isAnd;
    private final VecExpr[] args;
    private final int[][] argColumns;

    AndOrEval(boolean isAnd, VecExpr[] args, int[][] argColumns) {
        this.isAnd = isAnd;
        this.args = args;
        this.argColumns = argColumns;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        long decided = isAnd ? 0 : 1;
        long[] value = new long[n];
        boolean[] unknown = new boolean[n];
        java.util.Arrays.fill(value, 1 - decided);
        int[] open = SubBatch.all(n);
        int openCount = n;
        boolean anyUnknown = false;
        for (int a = 0; a < args.length && openCount > 0; a++) {
            Vector v = args[a].eval(SubBatch.of(batch, open, openCount, argColumns[a]));
            long[] vals = v.longs();
            boolean[] nulls = v.nulls();
            int kept = 0;
            for (int i = 0; i < openCount; i++) {
                int row = open[i];
                if (nulls != null && nulls[i]) {
                    unknown[row] = true;
                    anyUnknown = true;
                    open[kept++] = row;
                } else if (vals[i] == decided) {
                    value[row] = decided;
                    unknown[row] = false;
                } else {
                    open[kept++] = row;
                }
            }
            openCount = kept;
        }
        if (!anyUnknown) {
            return Vector.ofLongs(DataType.BOOLEAN, value, null);
        }
        for (int i = 0; i < n; i++) {
            if (unknown[i]) {
                value[i] = 0;
            }
        }
        return Vector.ofLongs(DataType.BOOLEAN, value, unknown);
    }
}
