package dev.starling.exec.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StringInternerTest {
    private static StrDict dict(String... values) {
        StrDict.Builder b = new StrDict.Builder();
        for (String v : values) {
            b.add(v);
        }
        return b.build();
    }

    @Test
    void internsOnlyTheStringsThatBatchesUse() {
        StringInterner interner = new StringInterner();
        StrDict d = dict("a", "b", "c", "d");
        int[] t = interner.translation(d, new long[] {3, 1, 3}, 3, true);
        assertEquals(0, t[3]);
        assertEquals(1, t[1]);
        assertEquals(2, interner.dictionary().size());
        t = interner.translation(d, new long[] {0}, 1, true);
        assertEquals(2, t[0]);
        assertEquals("d", interner.dictionary().get(0));
    }

    @Test
    void lookupsMissStringsNotInternedAndAddingLaterStillInternsThem() {
        StringInterner interner = new StringInterner();
        StrDict build = dict("x", "y");
        StrDict probe = dict("y", "z");
        interner.translation(build, new long[] {0, 1}, 2, true);
        int[] t = interner.translation(probe, new long[] {0, 1}, 2, false);
        assertEquals(1, t[0]);
        assertTrue(t[1] < 0, "z was never interned");
        // The build dictionary's own map, probed for an entry it never added, misses without remembering it.
        StrDict both = dict("p", "q");
        interner.translation(both, new long[] {0}, 1, true);
        assertTrue(interner.translation(both, new long[] {1}, 1, false)[1] < 0);
        assertEquals(3, interner.translation(both, new long[] {1}, 1, true)[1]);
    }
}
