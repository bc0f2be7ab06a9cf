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
    private final Map<StrDict, int[]> translations = new IdentityHashMap<>();

    /**
     * For each code of {@code dict}, its interned code; with {@code add == false} strings not yet
     * interned map to -1 (a probe for a string no build row has).
     */
    public synchronized int[] translation(StrDict dict, boolean add) {
        int[] t = translations.get(dict);
        if (t != null && (!add || !hasMissing(t))) {
            return t;
        }
        t = new int[dict.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = add ? builder.add(dict.get(i)) : lookup(dict.get(i));
        }
        translations.put(dict, t);
        return t;
    }

    private static boolean hasMissing(int[] t) {
        for (int v : t) {
            if (v < 0) {
                return true;
            }
        }
        return false;
    }

    private int lookup(String s) {
        return builder.find(s);
    }

    /** The interned strings so far; codes index it. */
    public synchronized StrDict dictionary() {
        return builder.build();
    }
}
