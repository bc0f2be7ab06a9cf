package dev.starling.storage.gen;

import java.util.List;
import java.util.Random;

/**
 * The 13 Star Schema Benchmark queries, Q1.1 to Q4.3, over the tables of {@link SsbGenerator}
 * (unqualified names; the date dimension is {@code dwdate}). The texts are resources next to this
 * class, in {@code ssb/q1.1.sql} and so on.
 */
public final class SsbQueries {
    private static final List<String> NAMES = List.of(
            "1.1", "1.2", "1.3", "2.1", "2.2", "2.3", "3.1", "3.2", "3.3", "3.4", "4.1", "4.2", "4.3");

    private SsbQueries() { }

    /** The query names in order: "1.1" to "4.3". */
    public static List<String> names() {
        return NAMES;
    }

    public static String query(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("SSB has no query '" + name + "'; its queries are " + NAMES);
        }
        return QueryResources.read("ssb/q" + name + ".sql");
    }

    /**
     * Query {@code name} with other parameters, drawn within the ranges the data covers
     * ({@link SsbSubstitutions}); a seed gives one text.
     */
    public static String variant(String name, long seed) {
        return SsbSubstitutions.apply(name, query(name), new Random(seed * NAMES.size() + NAMES.indexOf(name)));
    }
}
