package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.function.Predicate;

/**
 * A predicate of one string and constants (comparison with a literal, LIKE, IN): tested once per
 * dictionary entry, then each row looks its code up. The per-entry answers are kept for the last
 * dictionary seen, which for a scanned column is the same one in every batch.
 */
final class DictPredicateEval extends VecExpr {
    private final VecExpr input;
    private final Predicate<String> test;
    private final boolean nullWhenFalse;
    private StrDict cachedDict;
    private long[] cachedAnswers;

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
        if (v.dict() != cachedDict) {
            StrDict d = v.dict();
            long[] answers = new long[d.size()];
            for (int i = 0; i < answers.length; i++) {
                answers[i] = test.test(d.get(i)) ? 1 : 0;
            }
            cachedAnswers = answers;
            cachedDict = d;
        }
        long[] answers = cachedAnswers;
        long[] codes = v.longs();
        long[] out = new long[n];
        boolean[] nulls = v.nulls();
        for (int i = 0; i < n; i++) {
            out[i] = nulls != null && nulls[i] ? 0 : answers[(int) codes[i]];
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
