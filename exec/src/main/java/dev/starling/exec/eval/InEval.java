package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.Arrays;

/**
 * {@code value IN (literals)} over numbers, dates and booleans, the literals of the value's
 * representation (explicit form): each row is looked up in a sorted array. A NULL in the list turns
 * a miss into NULL.
 */
final class InEval extends VecExpr {
    private final VecExpr input;
    private final long[] exact;
    private final double[] inexact;
    private final boolean listHasNull;

    /** {@code literals}: Long or Boolean (Double for a DOUBLE value), null for a NULL in the list. */
    InEval(VecExpr input, boolean isDouble, Object[] literals) {
        this.input = input;
        Object[] values = Arrays.stream(literals).filter(o -> o != null).toArray();
        this.listHasNull = values.length < literals.length;
        this.exact = isDouble ? null : Arrays.stream(values).mapToLong(InEval::stored).sorted().toArray();
        this.inexact = isDouble ? Arrays.stream(values).mapToDouble(o -> (Double) o).sorted().toArray() : null;
    }

    /** A literal as a vector stores it: BOOLEAN as 0/1. */
    private static long stored(Object literal) {
        return literal instanceof Boolean b ? (b ? 1 : 0) : (Long) literal;
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
