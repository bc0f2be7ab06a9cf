package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD over operands in explicit form ({@link ExprLowering}): in
 * doubles, or in scaled longs with 64-bit overflow an error, a product or quotient rounded half away
 * from zero to the result's scale.
 */
final class ArithmeticEval extends VecExpr {
    private final Call.Op op;
    private final VecExpr left;
    private final VecExpr right;
    private final DataType type;
    private final int productDrop;
    private final int quotientShift;
    private final boolean truncates;

    ArithmeticEval(Call c, VecExpr left, VecExpr right) {
        this.op = c.op();
        this.left = left;
        this.right = right;
        this.type = c.type();
        boolean exact = type.kind() != DataType.Kind.DOUBLE;
        this.productDrop = exact && op == Call.Op.MULTIPLY ? ExprLowering.productDrop(c) : 0;
        this.quotientShift = exact && op == Call.Op.DIVIDE ? ExprLowering.quotientShift(c) : 0;
        this.truncates = exact && op == Call.Op.DIVIDE && ExprLowering.truncates(c);
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector a = left.eval(batch);
        Vector b = right.eval(batch);
        boolean[] nulls = Numbers.orNulls(a.nulls(), b.nulls(), n);
        if (type.kind() == DataType.Kind.DOUBLE) {
            return Vector.ofDoubles(doubles(a.doubles(), b.doubles(), nulls, n), nulls);
        }
        return Vector.ofLongs(type, longs(a.longs(), b.longs(), nulls, n), nulls);
    }

    private long[] longs(long[] x, long[] y, boolean[] nulls, int n) {
        long[] out = new long[n];
        switch (op) {
            case ADD -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Decimals.add(x[i], y[i]);
                }
            }
            case SUBTRACT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Decimals.subtract(x[i], y[i]);
                }
            }
            case MULTIPLY -> {
                if (productDrop == 0) {
                    for (int i = 0; i < n; i++) {
                        out[i] = Decimals.multiply(x[i], y[i]);
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = Decimals.multiplyRescale(x[i], y[i], productDrop);
                    }
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    if (nulls != null && nulls[i]) {
                        continue;
                    }
                    if (y[i] == 0) {
                        throw new ArithmeticException(op == Call.Op.MOD ? "division by zero (MOD)" : "division by zero");
                    }
                    out[i] = op == Call.Op.MOD ? x[i] % y[i]
                            : truncates ? Decimals.divideTruncated(x[i], y[i]) : Decimals.scaledDivide(x[i], quotientShift, y[i]);
                }
            }
        }
        return out;
    }

    private double[] doubles(double[] x, double[] y, boolean[] nulls, int n) {
        double[] out = new double[n];
        switch (op) {
            case ADD -> {
                for (int i = 0; i < n; i++) {
                    out[i] = x[i] + y[i];
                }
            }
            case SUBTRACT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = x[i] - y[i];
                }
            }
            case MULTIPLY -> {
                for (int i = 0; i < n; i++) {
                    out[i] = x[i] * y[i];
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        if (y[i] == 0) {
                            throw new ArithmeticException("division by zero");
                        }
                        out[i] = op == Call.Op.DIVIDE ? x[i] / y[i] : x[i] % y[i];
                    }
                }
            }
        }
        return out;
    }
}
