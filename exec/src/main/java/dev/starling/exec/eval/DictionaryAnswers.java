package dev.starling.exec.eval;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.stream.IntStream;

/**
 * A boolean expression of one string column (its input column 0), answered once per entry of the
 * column's dictionary by the CPU evaluator, so that an accelerator reads each row's answer by its
 * code instead of evaluating LIKE, SUBSTRING and the like itself: string semantics stay written
 * once. Large dictionaries (comments, phone numbers: about one entry per row) are answered in
 * slices in parallel. A dictionary belongs to one table version and never changes, so the answers
 * are kept with it for the predicates last asked (TPC-H Q13's NOT LIKE over 15M comments is
 * answered once, not per query); they go when the dictionary does.
 */
public final class DictionaryAnswers {
    public static final byte FALSE = 0;
    public static final byte TRUE = 1;
    public static final byte NULL = 2;
    /** Entries a task answers at a time; tasks take every so many slices, so that each ends about when the others do. */
    private static final int SLICE = 1 << 16;

    /** Predicates whose answers are kept per dictionary, the least recently asked going first. */
    private static final int KEPT_PER_DICTIONARY = 16;
    private static final Map<StrDict, Map<Expr, byte[]>> KEPT = Collections.synchronizedMap(new WeakHashMap<>());

    private DictionaryAnswers() { }

    /**
     * Per code of {@code dict}, then once more for a NULL string, {@code predicate}'s answer:
     * {@link #FALSE}, {@link #TRUE} or {@link #NULL}. The array is shared: callers only read it.
     */
    public static byte[] of(Expr predicate, DataType stringType, StrDict dict) {
        Map<Expr, byte[]> kept = KEPT.computeIfAbsent(dict, d -> new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Expr, byte[]> eldest) {
                return size() > KEPT_PER_DICTIONARY;
            }
        });
        synchronized (kept) {
            byte[] known = kept.get(predicate);
            if (known != null) {
                return known;
            }
        }
        byte[] answers = answer(predicate, stringType, dict);
        synchronized (kept) {
            kept.put(predicate, answers);
        }
        return answers;
    }

    private static byte[] answer(Expr predicate, DataType stringType, StrDict dict) {
        int n = dict.size();
        byte[] out = new byte[n + 1];
        int slices = (n + SLICE - 1) / SLICE;
        int tasks = Math.max(1, Math.min(slices, Runtime.getRuntime().availableProcessors()));
        // one evaluator per task, not per slice: a string function (SUBSTRING) maps its whole
        // dictionary once per evaluator
        IntStream.range(0, tasks).parallel().forEach(t -> {
            VecExpr e = ExprCompiler.compile(predicate);
            for (int s = t; s < slices; s += tasks) {
                for (int from = s * SLICE, end = Math.min(n, from + SLICE); from < end; from += Batch.ROWS) {
                    int rows = Math.min(Batch.ROWS, end - from);
                    long[] codes = new long[rows];
                    for (int i = 0; i < rows; i++) {
                        codes[i] = from + i;
                    }
                    answer(e, Vector.ofCodes(stringType, codes, null, dict), out, from);
                }
            }
        });
        answer(ExprCompiler.compile(predicate), Vector.ofCodes(stringType, new long[1], new boolean[] {true}, dict), out, n);
        return out;
    }

    private static void answer(VecExpr e, Vector strings, byte[] out, int at) {
        int rows = strings.longs().length;
        Vector v = e.eval(new Batch(new Vector[] {strings}, rows));
        for (int i = 0; i < rows; i++) {
            out[at + i] = v.isNull(i) ? NULL : v.getLong(i) != 0 ? TRUE : FALSE;
        }
    }
}
