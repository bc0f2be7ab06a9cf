package dev.starling.exec.vector;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Gives every distinct string seen by one operator a code of its own, so hash tables over strings
 * key on ints whatever dictionary a batch came with. Thread-safe: the workers of one operator share
 * it, which keeps their partial states' codes comparable when they are merged.
 */
public final class StringInterner {
    private final StrDict.Builder builder = new StrDict.Builder();
    /** Translations made while adding: every code maps, so they never need rebuilding. */
    private final Map<StrDict, int[]> complete = new IdentityHashMap<>();
    /** Lookup-only translations (probes after a build), where strings not interned map to -1. */
    private final Map<StrDict, int[]> lookups = new IdentityHashMap<>();

    /**
     * For each code of {@code dict}, its interned code; with {@code add == false} strings not yet
     * interned map to -1 (a probe for a string no build row has). Called once per batch, so a
     * dictionary is translated once, not once per batch.
     */
    public synchronized int[] translation(StrDict dict, boolean add) {
        int[] t = complete.get(dict);
        if (t != null) {
            return t;
        }
        if (!add) {
            return lookups.computeIfAbsent(dict, d -> translate(d, false));
        }
        t = translate(dict, true);
        complete.put(dict, t);
        lookups.remove(dict);
        return t;
    }

    private int[] translate(StrDict dict, boolean add) {
        int[] t = new int[dict.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = add ? builder.add(dict.get(i)) : lookup(dict.get(i));
        }
        return t;
    }

    private int lookup(String s) {
        return builder.find(s);
    }

    /** The interned strings so far; codes index it. */
    public synchronized StrDict dictionary() {
        return builder.build();
    }
}
