package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 22 adapted query texts are standard SQL. Their answers on the generated data are checked
 * against the reference answers by the differential tests in module bench.
 */
class TpchQueriesTest {

    @Test
    void textsAreStandardSql() {
        for (int n = 1; n <= TpchQueries.COUNT; n++) {
            String sql = TpchQueries.query(n).toLowerCase();
            for (String presto : List.of("create ", "decimal '", "date(", "substr(", "--", ";")) {
                assertFalse(sql.contains(presto), "q" + n + " contains " + presto);
            }
        }
        assertTrue(TpchQueries.query(15).startsWith("WITH revenue AS ("));
        assertTrue(TpchQueries.query(11).contains("AS value"), "Q11 names its sum value, as the specification does");
        assertTrue(TpchQueries.query(11, 10).contains("sum(ps_supplycost * ps_availqty) * 0.00001\n"),
                "Q11's FRACTION is 0.0001 / SF");
        assertTrue(TpchQueries.query(11, 1).equals(TpchQueries.query(11)));
        assertTrue(TpchQueries.query(6, 10).equals(TpchQueries.query(6)));
        assertThrows(IllegalArgumentException.class, () -> TpchQueries.query(0));
        assertThrows(IllegalArgumentException.class, () -> TpchQueries.query(23));
    }

    @Test
    void variantsDrawOtherParametersOncePerSeed() {
        for (int n = 1; n <= TpchQueries.COUNT; n++) {
            assertEquals(TpchQueries.variant(n, 1, 7), TpchQueries.variant(n, 1, 7), "q" + n);
            int n0 = n;
            long changed = java.util.stream.LongStream.rangeClosed(1, 5)
                    .filter(seed -> !TpchQueries.variant(n0, 1, seed).equals(TpchQueries.query(n0))).count();
            assertTrue(changed >= 4, "q" + n + " kept its shipped parameters under " + (5 - changed) + " of 5 seeds");
        }
        for (long seed = 1; seed <= 20; seed++) {
            java.util.regex.Matcher nations = java.util.regex.Pattern.compile("n1.n_name = '([^']*)' AND n2.n_name = '([^']*)'")
                    .matcher(TpchQueries.variant(7, 1, seed));
            assertTrue(nations.find());
            assertNotEquals(nations.group(1), nations.group(2), "Q7's two nations differ");
        }
        assertTrue(TpchQueries.variant(11, 10, 1).contains("* 0.00001\n"), "a variant of Q11 keeps its FRACTION at the scale factor");
    }
}
