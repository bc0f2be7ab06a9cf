package dev.starling.engine;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.List;

/** Rows of Java values computed while a statement was prepared, as one batch for a result stream. */
final class ComputedRows {
    private ComputedRows() { }

    /** VARCHAR columns as strings, DOUBLE as doubles, the other types as longs in their storage conventions. */
    static Batch batch(List<Field> fields, List<List<Object>> rows) {
        int n = rows.size();
        Vector[] columns = new Vector[fields.size()];
        for (int c = 0; c < columns.length; c++) {
            DataType type = fields.get(c).type();
            boolean[] nulls = null;
            long[] longs = new long[n];
            double[] doubles = type.kind() == DataType.Kind.DOUBLE ? new double[n] : null;
            StrDict.Builder dict = type.kind() == DataType.Kind.VARCHAR ? new StrDict.Builder() : null;
            for (int r = 0; r < n; r++) {
                Object v = rows.get(r).get(c);
                if (v == null) {
                    nulls = nulls == null ? new boolean[n] : nulls;
                    nulls[r] = true;
                } else if (dict != null) {
                    longs[r] = dict.add(v.toString());
                } else if (doubles != null) {
                    doubles[r] = ((Number) v).doubleValue();
                } else {
                    longs[r] = ((Number) v).longValue();
                }
            }
            columns[c] = dict != null ? Vector.ofCodes(type, longs, nulls, dict.build())
                    : doubles != null ? Vector.ofDoubles(doubles, nulls) : Vector.ofLongs(type, longs, nulls);
        }
        return new Batch(columns, n);
    }
}
