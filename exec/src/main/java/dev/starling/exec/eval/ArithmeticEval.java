package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD. Exact types compute in scaled longs: ADD/SUBTRACT/MOD at the
 * larger operand scale, MULTIPLY at the sum of the scales, DIVIDE straight to the result scale;
 * the result is then rounded half away from zero to the result type. Any DOUBLE computes in doubles.
 */
final class ArithmeticEval extends VecExpr {
    private final Call.Op op;
    private final VecExpr left;
    private final VecExpr right;
    private final DataType type;

    ArithmeticEval(Call.Op op, VecExpr left, VecExpr right, DataType type) {
        this.op = op;
        this.left = left;
        this.right = right;
        this.type = type;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector a = left.eval(batch);
        Vector b = right.eval(batch);
        boolean[] nulls = Numbers.orNulls(a.nulls(), b.nulls(), n);
        if (type.kind() == DataType.Kind.DOUBLE || a.isDouble() || b.isDouble()) {
            return Numbers.fromDoubles(doubles(Numbers.doubles(a, n), Numbers.doubles(b, n), nulls, n), nulls, n, type);
        }
        int sa = Numbers.scale(a.type());
        int sb = Numbers.scale(b.type());
        int sr = Numbers.scale(type);
        return switch (op) {
            case ADD, SUBTRACT, MOD -> {
                int s = Math.max(sa, sb);
                long[] out = additive(Numbers.scaled(a, n, s), Numbers.scaled(b, n, s), nulls, n);
                yield Numbers.fromScaled(out, nulls, n, s, type);
            }
            case MULTIPLY -> Numbers.fromScaled(multiply(a.longs(), b.longs(), sa + sb - sr, n), nulls, n, sr, type);
            case DIVIDE -> Numbers.fromScaled(divide(a.longs(), b.longs(), nulls, n, sa, sb, sr), nulls, n, sr, type);
            default -> throw new IllegalStateException(op + " is not arithmetic");
        };
    }

    private long[] additive(long[] x, long[] y, boolean[] nulls, int n) {
        long[] out = new long[n];
        switch (op) {
            case ADD -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Decimals.add(x[i], y[i]);
                }
            }
            case SUBTRACT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Decimals.add(x[i], -y[i]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        if (y[i] == 0) {
                            throw new ArithmeticException("division by zero (MOD)");
                        }
                        out[i] = x[i] % y[i];
                    }
                }
            }
        }
        return out;
    }

    private static long[] multiply(long[] x, long[] y, int drop, int n) {
        long[] out = new long[n];
        if (drop == 0) {
            for (int i = 0; i < n; i++) {
                out[i] = Decimals.multiply(x[i], y[i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = Decimals.multiplyRescale(x[i], y[i], drop);
            }
        }
        return out;
    }

    private long[] divide(long[] x, long[] y, boolean[] nulls, int n, int sa, int sb, int sr) {
        long[] out = new long[n];
        boolean truncate = type.isIntegral() && sa == 0 && sb == 0;
        int shift = sb + sr - sa;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            if (y[i] == 0) {
                throw new ArithmeticException("division by zero");
            }
            out[i] = truncate ? x[i] / y[i] : Decimals.scaledDivide(x[i], shift, y[i]);
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
