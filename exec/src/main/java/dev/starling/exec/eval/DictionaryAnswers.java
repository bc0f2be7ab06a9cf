package dev.starling.exec.eval;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.stream.IntStream;

/**
 * An expression of one string column (its input column 0), answered once per entry of the
 * column's dictionary by the CPU evaluator, so that an accelerator reads each row's answer by its
 * code instead of evaluating LIKE, SUBSTRING and the like itself: string semantics stay written
 * once. A predicate's answer is TRUE, FALSE or NULL ({@link #of}); a group key's is the rank of its
 * value among the distinct values of all entries ({@link #ranks}: TPC-H Q22 groups by the first
 * two characters of a phone number). Large dictionaries (comments, phone numbers: about one entry
 * per row) are answered in slices in parallel. A dictionary belongs to one table version and
 * never changes, so the answers are kept with it for the expressions last asked (TPC-H Q13's NOT
 * LIKE over 15M comments is answered once, not per query); they go when the dictionary does.
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
    private static final Map<StrDict, Map<Expr, Ranks>> KEPT_RANKS = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * A group key's answers: per code, then once more for a NULL string, the rank of the key's
     * value ({@code rank}), ranks numbered in order of first appearance; {@code firstEntry}: per
     * rank, the first entry with it (the dictionary's size for the NULL string), whose value the
     * key has.
     */
    public record Ranks(int[] rank, int[] firstEntry) { }

    private DictionaryAnswers() { }

    /**
     * Per code of {@code dict}, then once more for a NULL string, {@code predicate}'s answer:
     * {@link #FALSE}, {@link #TRUE} or {@link #NULL}. The array is shared: callers only read it.
     */
    public static byte[] of(Expr predicate, DataType stringType, StrDict dict) {
        return kept(KEPT, dict, predicate, () -> {
            byte[] out = new byte[dict.size() + 1];
            evaluate(predicate, stringType, dict, (at, rows, v) -> {
                for (int i = 0; i < rows; i++) {
                    out[at + i] = v.isNull(i) ? NULL : v.getLong(i) != 0 ? TRUE : FALSE;
                }
            });
            return out;
        });
    }

    /** The ranks of group key {@code key}'s values per code of {@code dict} (see {@link Ranks}); shared, callers only read it. */
    public static Ranks ranks(Expr key, DataType stringType, StrDict dict) {
        return kept(KEPT_RANKS, dict, key, () -> {
            Object[] values = new Object[dict.size() + 1];
            evaluate(key, stringType, dict, (at, rows, v) -> {
                for (int i = 0; i < rows; i++) {
                    Object value = v.value(i);
                    // grouping takes -0.0 and 0.0 as one value, and NULL as one more
                    values[at + i] = value == null ? Ranks.class : value instanceof Double d ? d + 0.0 : value;
                }
            });
            int[] rank = new int[values.length];
            List<Integer> first = new ArrayList<>();
            Map<Object, Integer> ids = new HashMap<>();
            for (int entry = 0; entry < values.length; entry++) {
                int at = entry;
                rank[entry] = ids.computeIfAbsent(values[entry], x -> {
                    first.add(at);
                    return first.size() - 1;
                });
            }
            return new Ranks(rank, first.stream().mapToInt(Integer::intValue).toArray());
        });
    }

    /** {@code expression}'s answers for {@code dict}, kept in {@code kept} for the dictionary, or computed by {@code compute}. */
    private static <T> T kept(Map<StrDict, Map<Expr, T>> kept, StrDict dict, Expr expression,
                              java.util.function.Supplier<T> compute) {
        Map<Expr, T> forDict = kept.computeIfAbsent(dict, d -> new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Expr, T> eldest) {
                return size() > KEPT_PER_DICTIONARY;
            }
        });
        synchronized (forDict) {
            T known = forDict.get(expression);
            if (known != null) {
                return known;
            }
        }
        T answers = compute.get();
        synchronized (forDict) {
            forDict.put(expression, answers);
        }
        return answers;
    }

    /**
     * Evaluates {@code expression} over every code of {@code dict}, a batch at a time, in parallel,
     * then over a NULL string: {@code out} gets each batch's first code (the dictionary's size for
     * the NULL string), its rows and its values; batches never overlap.
     */
    private static void evaluate(Expr expression, DataType stringType, StrDict dict, BatchAnswers out) {
        int n = dict.size();
        int slices = (n + SLICE - 1) / SLICE;
        int tasks = Math.max(1, Math.min(slices, Runtime.getRuntime().availableProcessors()));
        // one evaluator per task, not per slice: a string function (SUBSTRING) maps its whole
        // dictionary once per evaluator
        IntStream.range(0, tasks).parallel().forEach(t -> {
            VecExpr e = ExprCompiler.compile(expression);
            for (int s = t; s < slices; s += tasks) {
                for (int from = s * SLICE, end = Math.min(n, from + SLICE); from < end; from += Batch.ROWS) {
                    int rows = Math.min(Batch.ROWS, end - from);
                    long[] codes = new long[rows];
                    for (int i = 0; i < rows; i++) {
                        codes[i] = from + i;
                    }
                    out.accept(from, rows, eval(e, Vector.ofCodes(stringType, codes, null, dict)));
                }
            }
        });
        out.accept(n, 1, eval(ExprCompiler.compile(expression),
                Vector.ofCodes(stringType, new long[1], new boolean[] {true}, dict)));
    }

    private static Vector eval(VecExpr e, Vector strings) {
        return e.eval(new Batch(new Vector[] {strings}, strings.longs().length));
    }

    /** The values of {@code rows} codes from {@code at} on (their arrays may be longer). */
    private interface BatchAnswers {
        void accept(int at, int rows, Vector values);
    }
}
