package dev.starling.exec.vector;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Gives every distinct string seen by one operator a code of its own, so hash tables over strings
 * key on ints whatever dictionary a batch came with. Thread-safe: the workers of one operator share
 * it, which keeps their partial states' codes comparable when they are merged.
 */
public final class StringInterner {
    private static final int UNTRANSLATED = -2;

    private final StrDict.Builder builder = new StrDict.Builder();
    /** Translations made while adding: every translated code maps, so they never need rebuilding. */
    private final Map<StrDict, int[]> complete = new IdentityHashMap<>();
    /** Lookup-only translations (probes after a build), where strings not interned map to -1. */
    private final Map<StrDict, int[]> lookups = new IdentityHashMap<>();

    /**
     * A map from codes of {@code dict} to interned codes in which at least the entries for
     * {@code codes[0 .. n)} are filled; with {@code add == false} strings not yet interned map to a
     * negative code (a probe for a string no build row has). An entry is translated when a batch first uses it:
     * a dictionary can hold far more strings than the rows that reach an operator.
     */
    public synchronized int[] translation(StrDict dict, long[] codes, int n, boolean add) {
        int[] t = complete.get(dict);
        if (t == null && add) {
            t = new int[dict.size()];
            Arrays.fill(t, UNTRANSLATED);
            complete.put(dict, t);
            lookups.remove(dict);
        } else if (t == null) {
            t = lookups.computeIfAbsent(dict, d -> {
                int[] fresh = new int[d.size()];
                Arrays.fill(fresh, UNTRANSLATED);
                return fresh;
            });
        }
        boolean keepMisses = !add && lookups.get(dict) == t;
        for (int i = 0; i < n; i++) {
            int c = (int) codes[i];
            if (t[c] == UNTRANSLATED) {
                int code = add ? builder.add(dict.get(c)) : builder.find(dict.get(c));
                // A miss stays untranslated (negative, so unknown too) in a map that may later add it.
                if (code >= 0 || keepMisses) {
                    t[c] = code;
                }
            }
        }
        return t;
    }

    /** The interned strings so far; codes index it. */
    public synchronized StrDict dictionary() {
        return builder.build();
    }
}
