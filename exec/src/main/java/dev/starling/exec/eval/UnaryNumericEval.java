package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/** NEGATE and ABS, in the operand's domain, then converted to the result type. */
final class UnaryNumericEval extends VecExpr {
    private final boolean negate;
    private final VecExpr input;
    private final DataType type;

    UnaryNumericEval(boolean negate, VecExpr input, DataType type) {
        this.negate = negate;
        this.input = input;
        this.type = type;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector v = input.eval(batch);
        if (v.isDouble()) {
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = negate ? -v.doubles()[i] : Math.abs(v.doubles()[i]);
            }
            return Numbers.convert(Vector.ofDoubles(out, v.nulls()), n, type);
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long x = v.longs()[i];
            out[i] = negate || x < 0 ? Math.negateExact(x) : x;
        }
        return Numbers.convert(Vector.ofLongs(v.type(), out, v.nulls()), n, type);
    }
}
