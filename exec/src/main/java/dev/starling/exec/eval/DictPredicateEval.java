package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.function.Predicate;

/**
 * A predicate of one string and constants (comparison with a literal, LIKE, IN): tested at most
 * once per dictionary entry, the first time a row brings its code, then each row looks the answer
 * up. Testing lazily keeps a large dictionary (comments, names) from being tested in full by every
 * worker. The answers are kept for the last dictionary seen, which for a scanned column is the same
 * one in every batch.
 */
final class DictPredicateEval extends VecExpr {
    private final VecExpr input;
    private final Predicate<String> test;
    private final boolean nullWhenFalse;
    private StrDict cachedDict;
    /** Per code: 0 not tested yet, 1 false, 2 true. */
    private byte[] answers;

    /** {@code nullWhenFalse}: a failed test yields NULL instead of FALSE (IN with a NULL in its list). */
    DictPredicateEval(VecExpr input, Predicate<String> test, boolean nullWhenFalse) {
        this.input = input;
        this.test = test;
        this.nullWhenFalse = nullWhenFalse;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector v = input.eval(batch);
        StrDict dict = v.dict();
        if (dict != cachedDict) {
            answers = new byte[dict.size()];
            cachedDict = dict;
        }
        long[] codes = v.longs();
        long[] out = new long[n];
        boolean[] nulls = v.nulls();
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int code = (int) codes[i];
            byte a = answers[code];
            if (a == 0) {
                a = test.test(dict.get(code)) ? (byte) 2 : (byte) 1;
                answers[code] = a;
            }
            out[i] = a - 1;
        }
        if (nullWhenFalse) {
            boolean[] outNulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                outNulls[i] = out[i] == 0;
            }
            nulls = outNulls;
        }
        return Vector.ofLongs(DataType.BOOLEAN, out, nulls);
    }
}
