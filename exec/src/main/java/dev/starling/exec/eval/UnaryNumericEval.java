package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/** NEGATE and ABS, in their operand's representation (explicit form); 64-bit overflow is an error. */
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
            return Vector.ofDoubles(out, v.nulls());
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long x = v.longs()[i];
            out[i] = negate || x < 0 ? Math.negateExact(x) : x;
        }
        return Vector.ofLongs(type, out, v.nulls());
    }
}
