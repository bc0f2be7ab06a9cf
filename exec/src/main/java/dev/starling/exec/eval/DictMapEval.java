package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.function.Function;

/**
 * A function of one string and constants (UPPER, LOWER, TRIM, SUBSTRING, CHAR_LENGTH, CAST from
 * VARCHAR): computed once per dictionary entry. A VARCHAR result gets a new, de-duplicated
 * dictionary, made once per source dictionary, so grouping on {@code SUBSTRING(phone, 1, 2)} works
 * on small codes. Non-string results are gathered from a per-entry array of values. An entry the
 * function fails on (a CAST of text that is no number) fails only the rows that hold it: a
 * dictionary also holds the strings of rows a CASE, say, keeps from the function.
 */
final class DictMapEval extends VecExpr {
    private final VecExpr input;
    private final Function<String, Object> function;
    private final DataType type;
    private StrDict cachedSource;
    private long[] cachedLongs;
    private double[] cachedDoubles;
    private boolean[] cachedNulls;
    private StrDict cachedResult;
    /** Per entry, why the function failed on it; null when it failed on none. */
    private RuntimeException[] cachedFailures;

    /** {@code function} returns a String, Long (storage convention of {@code type}), Double, or null. */
    DictMapEval(VecExpr input, Function<String, Object> function, DataType type) {
        this.input = input;
        this.function = function;
        this.type = type;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector v = input.eval(batch);
        if (v.dict() != cachedSource) {
            prepare(v.dict());
        }
        long[] codes = v.longs();
        boolean[] inNulls = v.nulls();
        if (cachedFailures != null) {
            for (int i = 0; i < n; i++) {
                if ((inNulls == null || !inNulls[i]) && cachedFailures[(int) codes[i]] != null) {
                    throw cachedFailures[(int) codes[i]];
                }
            }
        }
        boolean[] nulls = null;
        if (inNulls != null || cachedNulls != null) {
            nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                nulls[i] = (inNulls != null && inNulls[i]) || (cachedNulls != null && cachedNulls[(int) codes[i]]);
            }
        }
        if (cachedDoubles != null) {
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = inNulls != null && inNulls[i] ? 0 : cachedDoubles[(int) codes[i]];
            }
            return Vector.ofDoubles(out, nulls);
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = inNulls != null && inNulls[i] ? 0 : cachedLongs[(int) codes[i]];
        }
        return new Vector(type, out, null, nulls, cachedResult);
    }

    private void prepare(StrDict source) {
        int size = source.size();
        long[] longs = type.kind() == DataType.Kind.DOUBLE ? null : new long[size];
        double[] doubles = type.kind() == DataType.Kind.DOUBLE ? new double[size] : null;
        boolean[] nulls = null;
        RuntimeException[] failures = null;
        StrDict.Builder strings = type.kind() == DataType.Kind.VARCHAR ? new StrDict.Builder() : null;
        for (int i = 0; i < size; i++) {
            Object r;
            try {
                r = function.apply(source.get(i));
            } catch (RuntimeException e) {
                if (failures == null) {
                    failures = new RuntimeException[size];
                }
                failures[i] = e;
                continue;
            }
            if (r == null) {
                if (nulls == null) {
                    nulls = new boolean[size];
                }
                nulls[i] = true;
            } else if (strings != null) {
                longs[i] = strings.add((String) r);
            } else if (doubles != null) {
                doubles[i] = ((Number) r).doubleValue();
            } else {
                longs[i] = r instanceof Boolean b ? (b ? 1 : 0) : ((Number) r).longValue();
            }
        }
        cachedLongs = longs;
        cachedDoubles = doubles;
        cachedNulls = nulls;
        cachedFailures = failures;
        cachedResult = strings == null ? null : strings.build();
        cachedSource = source;
    }
}
