package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * CASE and COALESCE: each branch value is evaluated only on the rows that take it, then scattered
 * into the result. CASE takes a branch where its condition is TRUE; COALESCE takes an argument where
 * it is not NULL (the last argument takes every remaining row). The values are of the result's
 * representation (explicit form); strings from different dictionaries are merged into one.
 */
final class BranchEval extends VecExpr {
    private final VecExpr[] conditions;
    private final int[][] conditionColumns;
    private final VecExpr[] values;
    private final int[][] valueColumns;
    private final DataType type;

    /** CASE: {@code values} has one more entry than {@code conditions} (the ELSE). COALESCE: {@code conditions} is null. */
    BranchEval(VecExpr[] conditions, int[][] conditionColumns, VecExpr[] values, int[][] valueColumns, DataType type) {
        this.conditions = conditions;
        this.conditionColumns = conditionColumns;
        this.values = values;
        this.valueColumns = valueColumns;
        this.type = type;
    }

    /** Rows {@code rows[0..count)} of the result take {@code vector}'s positions {@code 0..count)}. */
    private record Part(int[] rows, int count, Vector vector) { }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        int[] open = SubBatch.all(n);
        int openCount = n;
        List<Part> parts = new ArrayList<>();
        for (int k = 0; k < values.length && openCount > 0; k++) {
            boolean last = k == values.length - 1;
            if (conditions != null && !last) {
                Vector cond = conditions[k].eval(SubBatch.of(batch, open, openCount, conditionColumns[k]));
                int[] taken = new int[openCount];
                int takenCount = 0;
                int kept = 0;
                for (int i = 0; i < openCount; i++) {
                    if (!cond.isNull(i) && cond.longs()[i] != 0) {
                        taken[takenCount++] = open[i];
                    } else {
                        open[kept++] = open[i];
                    }
                }
                openCount = kept;
                if (takenCount > 0) {
                    Vector v = values[k].eval(SubBatch.of(batch, taken, takenCount, valueColumns[k]));
                    parts.add(new Part(taken, takenCount, v));
                }
            } else {
                int[] rows = Arrays.copyOf(open, openCount);
                Vector v = values[k].eval(SubBatch.of(batch, rows, openCount, valueColumns[k]));
                if (last) {
                    parts.add(new Part(rows, openCount, v));
                    openCount = 0;
                } else {
                    int[] positions = new int[openCount];
                    int taken = 0;
                    int kept = 0;
                    for (int i = 0; i < rows.length; i++) {
                        if (v.isNull(i)) {
                            open[kept++] = rows[i];
                        } else {
                            positions[taken] = i;
                            rows[taken++] = rows[i];
                        }
                    }
                    openCount = kept;
                    if (taken > 0) {
                        parts.add(new Part(rows, taken, v.gather(positions, taken)));
                    }
                }
            }
        }
        return scatter(parts, n);
    }

    private Vector scatter(List<Part> parts, int n) {
        boolean[] nulls = new boolean[n];
        Arrays.fill(nulls, true);
        if (type.kind() == DataType.Kind.DOUBLE) {
            double[] out = new double[n];
            for (Part p : parts) {
                Vector v = p.vector;
                for (int i = 0; i < p.count; i++) {
                    out[p.rows[i]] = v.doubles()[i];
                    nulls[p.rows[i]] = v.isNull(i);
                }
            }
            return Vector.ofDoubles(out, nulls);
        }
        long[] out = new long[n];
        StrDict dict = null;
        StrDict.Builder merged = null;
        if (type.kind() == DataType.Kind.VARCHAR) {
            dict = parts.isEmpty() ? StrDict.EMPTY : parts.get(0).vector.dict();
            for (Part p : parts) {
                if (p.vector.dict() != dict) {
                    merged = new StrDict.Builder();
                }
            }
        }
        for (Part p : parts) {
            Vector v = p.vector;
            for (int i = 0; i < p.count; i++) {
                int row = p.rows[i];
                nulls[row] = v.isNull(i);
                if (!nulls[row]) {
                    out[row] = merged == null ? v.longs()[i] : merged.add(v.getString(i));
                }
            }
        }
        if (merged != null) {
            dict = merged.build();
        }
        return new Vector(type, out, null, nulls, dict);
    }
}
