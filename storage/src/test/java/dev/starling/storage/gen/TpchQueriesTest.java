package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
}
