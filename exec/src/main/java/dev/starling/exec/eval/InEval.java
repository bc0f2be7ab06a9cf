package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * {@code value IN (literals)} over numbers, dates and booleans: the literals are brought to the
 * value's domain once (those that cannot be equal to any value of it are dropped) and each row is
 * looked up in a sorted array. A NULL in the list turns a miss into NULL.
 */
final class InEval extends VecExpr {
    private final VecExpr input;
    private final long[] exact;
    private final double[] inexact;
    private final boolean listHasNull;

    InEval(VecExpr input, DataType valueType, Object[] literals, DataType[] literalTypes) {
        this.input = input;
        boolean hasNull = false;
        long[] l = new long[literals.length];
        double[] d = new double[literals.length];
        int count = 0;
        for (int i = 0; i < literals.length; i++) {
            if (literals[i] == null) {
                hasNull = true;
                continue;
            }
            BigDecimal v = toBigDecimal(literals[i], literalTypes[i]);
            if (valueType.kind() == DataType.Kind.DOUBLE) {
                d[count++] = v.doubleValue();
            } else {
                BigDecimal scaled = v.movePointRight(Numbers.scale(valueType));
                if (scaled.stripTrailingZeros().scale() <= 0) {
                    l[count++] = scaled.longValueExact();
                }
            }
        }
        this.listHasNull = hasNull;
        this.exact = valueType.kind() == DataType.Kind.DOUBLE ? null : sorted(Arrays.copyOf(l, count));
        this.inexact = valueType.kind() == DataType.Kind.DOUBLE ? sortedD(Arrays.copyOf(d, count)) : null;
    }

    private static BigDecimal toBigDecimal(Object literal, DataType type) {
        if (literal instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (literal instanceof Double x) {
            return BigDecimal.valueOf(x);
        }
        return BigDecimal.valueOf((Long) literal, Numbers.scale(type));
    }

    private static long[] sorted(long[] a) {
        Arrays.sort(a);
        return a;
    }

    private static double[] sortedD(double[] a) {
        Arrays.sort(a);
        return a;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector v = input.eval(batch);
        boolean[] inNulls = v.nulls();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            if (inNulls != null && inNulls[i]) {
                continue;
            }
            boolean hit = exact != null ? Arrays.binarySearch(exact, v.longs()[i]) >= 0
                    : Arrays.binarySearch(inexact, v.doubles()[i]) >= 0;
            out[i] = hit ? 1 : 0;
        }
        boolean[] nulls = inNulls;
        if (listHasNull) {
            nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                nulls[i] = out[i] == 0;
            }
        }
        return Vector.ofLongs(DataType.BOOLEAN, out, nulls);
    }
}
