package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/** NOT and the IS [NOT] NULL / TRUE / FALSE tests. */
final class TruthEval extends VecExpr {
    private final Call.Op op;
    private final VecExpr input;

    TruthEval(Call.Op op, VecExpr input) {
        this.op = op;
        this.input = input;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector v = input.eval(batch);
        boolean[] nulls = v.nulls();
        long[] out = new long[n];
        if (op == Call.Op.NOT) {
            long[] x = v.longs();
            for (int i = 0; i < n; i++) {
                out[i] = x[i] == 0 && (nulls == null || !nulls[i]) ? 1 : 0;
            }
            return Vector.ofLongs(DataType.BOOLEAN, out, nulls);
        }
        for (int i = 0; i < n; i++) {
            boolean isNull = nulls != null && nulls[i];
            boolean isTrue = !isNull && v.longs() != null && v.longs()[i] != 0;
            boolean isFalse = !isNull && v.longs() != null && v.longs()[i] == 0;
            boolean r = switch (op) {
                case IS_NULL -> isNull;
                case IS_NOT_NULL -> !isNull;
                case IS_TRUE -> isTrue;
                case IS_FALSE -> isFalse;
                case IS_NOT_TRUE -> !isTrue;
                case IS_NOT_FALSE -> !isFalse;
                default -> throw new IllegalStateException(op + " is not a truth test");
            };
            out[i] = r ? 1 : 0;
        }
        return Vector.ofLongs(DataType.BOOLEAN, out, null);
    }
}
