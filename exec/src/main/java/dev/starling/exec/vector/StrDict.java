package dev.starling.exec.vector;

import dev.starling.storage.Dictionary;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The distinct strings that the codes of a VARCHAR vector index. Entries are distinct, so equal
 * codes of one dictionary mean equal strings and the other way round. Scanned columns share one
 * instance per storage {@link Dictionary}, so code-based work (grouping, predicates evaluated once
 * per entry) is reused across batches and workers.
 */
public final class StrDict {
    public static final StrDict EMPTY = new StrDict(new String[0]);
    private static final Map<Dictionary, StrDict> DECODED = Collections.synchronizedMap(new WeakHashMap<>());

    private final String[] values;
    private volatile Map<String, Integer> index;
    private volatile int[] ranks;
    private volatile byte[][] utf8;

    private StrDict(String[] values) {
        this.values = values;
    }

    /** The decoded view of a storage dictionary, decoded once per dictionary. */
    public static StrDict of(Dictionary dictionary) {
        return DECODED.computeIfAbsent(dictionary, d -> new StrDict(d.toArray()));
    }

    public static StrDict of(String value) {
        return new StrDict(new String[] {value});
    }

    public int size() {
        return values.length;
    }

    public String get(int code) {
        return values[code];
    }

    /**
     * Each entry's UTF-8 bytes, by code, encoded once and kept with the dictionary (results send
     * every row's); shared, not to be modified. For dictionaries no larger than what is sent.
     */
    public byte[][] utf8() {
        byte[][] u = utf8;
        if (u == null) {
            u = new byte[values.length][];
            for (int i = 0; i < u.length; i++) {
                u[i] = values[i].getBytes(StandardCharsets.UTF_8);
            }
            utf8 = u;
        }
        return u;
    }

    /** The code of {@code value}, or -1. */
    public int codeOf(String value) {
        Map<String, Integer> m = index;
        if (m == null) {
            m = new HashMap<>(values.length * 2);
            for (int i = 0; i < values.length; i++) {
                m.put(values[i], i);
            }
            index = m;
        }
        Integer code = m.get(value);
        return code == null ? -1 : code;
    }

    /** For each code, its position in the sorted order of the entries: comparing ranks compares strings. */
    public int[] ranks() {
        int[] r = ranks;
        if (r == null) {
            Integer[] order = new Integer[values.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> compare(values[a], values[b]));
            r = new int[values.length];
            for (int i = 0; i < order.length; i++) {
                r[order[i]] = i;
            }
            ranks = r;
        }
        return r;
    }

    /**
     * SQL's string order: by Unicode code point, as DuckDB and UTF-8 byte order have it.
     * {@link String#compareTo} compares UTF-16 units instead, which puts characters above U+FFFF
     * (surrogate pairs) before U+E000..U+FFFF.
     */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Integer.compare(codePointOrder(x), codePointOrder(y));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** Moves surrogates above U+E000..U+FFFF, so that the first differing unit orders by code point. */
    private static int codePointOrder(char c) {
        if (c < Character.MIN_SURROGATE) {
            return c;
        }
        return c <= Character.MAX_SURROGATE ? c + 0x2000 : c - 0x800;
    }

    /** Builds a dictionary of distinct entries, handing out codes in insertion order. */
    public static final class Builder {
        private final Map<String, Integer> codes = new HashMap<>();
        private String[] values = new String[16];
        private int size;

        public int add(String value) {
            Integer code = codes.get(value);
            if (code != null) {
                return code;
            }
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size] = value;
            codes.put(value, size);
            return size++;
        }

        /** The code of {@code value}, or -1 when it was never added. */
        public int find(String value) {
            Integer code = codes.get(value);
            return code == null ? -1 : code;
        }

        public int size() {
            return size;
        }

        public StrDict build() {
            return new StrDict(Arrays.copyOf(values, size));
        }
    }
}
