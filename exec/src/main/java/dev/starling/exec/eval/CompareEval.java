package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * EQ, NE, LT, LE, GT, GE over operands of one representation (explicit form): numbers, dates and
 * booleans by their stored values, strings by value: codes when both sides share a dictionary and the test is (in)equality,
 * otherwise the string comparison is done once per pair of distinct codes seen.
 */
final class CompareEval extends VecExpr {
    private final Call.Op op;
    private final VecExpr left;
    private final VecExpr right;

    CompareEval(Call.Op op, VecExpr left, VecExpr right) {
        this.op = op;
        this.left = left;
        this.right = right;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector a = left.eval(batch);
        Vector b = right.eval(batch);
        boolean[] nulls = Numbers.orNulls(a.nulls(), b.nulls(), n);
        long[] out = new long[n];
        if (a.type().kind() == DataType.Kind.VARCHAR) {
            strings(a, b, out, n);
        } else if (a.isDouble()) {
            doubles(a.doubles(), b.doubles(), out, n);
        } else {
            longs(a.longs(), b.longs(), out, n);
        }
        return Vector.ofLongs(DataType.BOOLEAN, out, nulls);
    }

    private void longs(long[] x, long[] y, long[] out, int n) {
        switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { out[i] = x[i] == y[i] ? 1 : 0; } }
            case NE -> { for (int i = 0; i < n; i++) { out[i] = x[i] != y[i] ? 1 : 0; } }
            case LT -> { for (int i = 0; i < n; i++) { out[i] = x[i] < y[i] ? 1 : 0; } }
            case LE -> { for (int i = 0; i < n; i++) { out[i] = x[i] <= y[i] ? 1 : 0; } }
            case GT -> { for (int i = 0; i < n; i++) { out[i] = x[i] > y[i] ? 1 : 0; } }
            case GE -> { for (int i = 0; i < n; i++) { out[i] = x[i] >= y[i] ? 1 : 0; } }
            default -> throw new IllegalStateException(op + " is not a comparison");
        }
    }

    private void doubles(double[] x, double[] y, long[] out, int n) {
        switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { out[i] = x[i] == y[i] ? 1 : 0; } }
            case NE -> { for (int i = 0; i < n; i++) { out[i] = x[i] != y[i] ? 1 : 0; } }
            case LT -> { for (int i = 0; i < n; i++) { out[i] = x[i] < y[i] ? 1 : 0; } }
            case LE -> { for (int i = 0; i < n; i++) { out[i] = x[i] <= y[i] ? 1 : 0; } }
            case GT -> { for (int i = 0; i < n; i++) { out[i] = x[i] > y[i] ? 1 : 0; } }
            case GE -> { for (int i = 0; i < n; i++) { out[i] = x[i] >= y[i] ? 1 : 0; } }
            default -> throw new IllegalStateException(op + " is not a comparison");
        }
    }

    private void strings(Vector a, Vector b, long[] out, int n) {
        long[] x = a.longs();
        long[] y = b.longs();
        if (a.dict() == b.dict() && (op == Call.Op.EQ || op == Call.Op.NE)) {
            longs(x, y, out, n);
            return;
        }
        if (a.dict() == b.dict()) {
            int[] ranks = a.dict().ranks();
            long[] rx = new long[n];
            long[] ry = new long[n];
            for (int i = 0; i < n; i++) {
                rx[i] = ranks[(int) x[i]];
                ry[i] = ranks[(int) y[i]];
            }
            longs(rx, ry, out, n);
            return;
        }
        StrDict da = a.dict();
        StrDict db = b.dict();
        boolean[] nulls = Numbers.orNulls(a.nulls(), b.nulls(), n);
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int c = StrDict.compare(da.get((int) x[i]), db.get((int) y[i]));
            out[i] = test(c) ? 1 : 0;
        }
    }

    private boolean test(int c) {
        return switch (op) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
            default -> throw new IllegalStateException(op + " is not a comparison");
        };
    }
}
