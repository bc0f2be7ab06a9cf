package dev.starling.exec.op;

import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.List;

/** The literal rows of a VALUES node as one batch. */
public final class ValuesBatch {
    private ValuesBatch() { }

    public static Batch of(ValuesNode values) {
        List<Field> fields = values.output();
        List<List<Object>> rows = values.rows();
        int n = rows.size();
        Vector[] cols = new Vector[fields.size()];
        for (int c = 0; c < cols.length; c++) {
            DataType t = fields.get(c).type();
            boolean[] nulls = new boolean[n];
            long[] longs = new long[n];
            double[] doubles = new double[n];
            StrDict.Builder dict = new StrDict.Builder();
            for (int r = 0; r < n; r++) {
                Object v = rows.get(r).get(c);
                if (v == null) {
                    nulls[r] = true;
                    continue;
                }
                switch (t.kind()) {
                    case DOUBLE -> doubles[r] = ((Number) v).doubleValue();
                    case VARCHAR -> longs[r] = dict.add((String) v);
                    case BOOLEAN -> longs[r] = (Boolean) v ? 1 : 0;
                    default -> longs[r] = ((Number) v).longValue();
                }
            }
            cols[c] = t.kind() == DataType.Kind.DOUBLE ? Vector.ofDoubles(doubles, nulls)
                    : new Vector(t, longs, null, nulls, t.kind() == DataType.Kind.VARCHAR ? dict.build() : null);
        }
        return new Batch(cols, n);
    }
}
