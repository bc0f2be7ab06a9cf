package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dictionary extended by appends keeps its codes, finds each version's own entries and no later
 * version's, also where two versions extend the same one (the second indexes its entries apart),
 * and an INSERT into a table reuses the codes of strings it already holds.
 */
class DictionaryTest {
    private static List<String> strings(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(prefix + i + (i % 3 == 0 ? "é" : ""));
        }
        return out;
    }

    @Test
    void eachVersionFindsItsOwnEntriesAndNoLaterOnes() {
        Dictionary base = Dictionary.of(strings("a", 1000).toArray(new String[0]));
        assertEquals(17, base.codeOf("a17"));
        assertEquals(18, base.codeOf("a18é"));
        assertEquals(-1, base.codeOf("b1"));
        Dictionary first = base.extend(strings("b", 5000));
        Dictionary second = base.extend(strings("c", 10));
        for (Dictionary d : List.of(first, second)) {
            assertEquals(999, d.codeOf("a999é"));
            assertEquals(-1, d.codeOf("a999"));
            assertEquals(998, d.codeOf("a998"));
            assertEquals(0, d.codeOf("a0é"));
        }
        assertEquals(1000 + 4999, first.codeOf("b4999"));
        assertEquals(-1, first.codeOf("c3"));
        assertEquals(1003, second.codeOf("c3é"));
        assertEquals(-1, second.codeOf("b1"));
        assertEquals(-1, base.codeOf("b1"), "the base ignores what its extension added to the index they share");
        assertEquals(-1, base.codeOf("c3é"));
        Dictionary third = first.extend(List.of("z"));
        assertEquals(6000, third.codeOf("z"));
        assertEquals(-1, first.codeOf("z"));
        List<String> all = new ArrayList<>(strings("a", 1000));
        all.addAll(strings("b", 5000));
        all.add("z");
        assertArrayEquals(all.toArray(new String[0]), third.toArray());
        // third wrote into the room first left; another extension of first gets memory of its own
        Dictionary fourth = first.extend(List.of("y", "yy"));
        assertEquals(6001, fourth.codeOf("yy"));
        assertEquals(-1, fourth.codeOf("z"));
        assertEquals("z", third.get(6000));
        assertEquals("y", fourth.get(6000));
        assertEquals(6000, first.size());
        assertEquals(List.of("b4999"), List.of(first.get(5999)));
        Dictionary fifth = third.extend(List.of("q"));
        assertEquals("q", fifth.get(6001));
        assertEquals("z", fifth.get(6000));
        assertEquals(-1, third.codeOf("q"));
        assertEquals(-1, Dictionary.EMPTY.codeOf(""));
        assertEquals(0, Dictionary.of(new String[] {""}).codeOf(""));
    }

    @Test
    void aVersionFindsItsEntriesWhileALaterOneIsAddedToTheIndexTheyShare() throws Exception {
        List<String> own = strings("a", 10_000);
        Dictionary base = Dictionary.of(own.toArray(new String[0]));
        assertEquals(0, base.codeOf("a0é"));
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<String> wrong = new java.util.concurrent.atomic.AtomicReference<>();
        Thread reader = new Thread(() -> {
            for (int i = 0; !done.get(); i++) {
                int k = i % own.size();
                if (base.codeOf(own.get(k)) != k) {
                    wrong.set(own.get(k));
                }
                if (base.codeOf("b0_" + k) != -1) {
                    wrong.set("b0_" + k);
                }
            }
        });
        reader.start();
        Dictionary d = base;
        for (int round = 0; round < 20; round++) {
            d = d.extend(strings("b" + round + "_", 20_000));
        }
        done.set(true);
        reader.join();
        assertEquals(null, wrong.get(), "what the base found while its successors grew the index");
        assertEquals(10_000 + 19 * 20_000 + 5, d.codeOf("b19_5"));
    }

    @Test
    void anInsertReusesTheCodesOfStringsTheTableHolds() {
        TableSchema schema = new TableSchema("t", List.of(new ColumnSchema("s", DataType.VARCHAR, false)), List.of(),
                List.of());
        TableBuilder b = new TableBuilder(schema, null);
        for (String s : List.of("x", "y", "x")) {
            b.setString(0, s);
            b.endRow();
        }
        Table before = b.build();
        TableBuilder more = TableBuilder.appendingTo(before, null);
        for (String s : List.of("y", "w", "w", "x")) {
            more.setString(0, s);
            more.endRow();
        }
        Table after = more.build();
        assertArrayEquals(new String[] {"x", "y", "w"}, after.column(0).dictionary().toArray());
        ColumnChunk chunk = after.column(0).chunks().get(0);
        long[] codes = new long[chunk.rows()];
        for (int r = 0; r < codes.length; r++) {
            codes[r] = chunk.getAsLong(r);
        }
        assertArrayEquals(new long[] {0, 1, 0, 1, 2, 2, 0}, codes);
    }
}
