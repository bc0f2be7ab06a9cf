package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A CAST of strings is computed once per dictionary entry, and a dictionary holds the strings of
 * every row: text that is no number fails only the rows that reach the CAST, not those a CASE or a
 * WHERE keeps from it (as DuckDB and the SQL standard evaluate them); a row that does reach it still
 * fails the query, saying what could not be cast.
 */
class GuardedCastTest {

    @Test
    void textThatIsNoNumberFailsOnlyTheRowsThatReachTheCast() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (k INTEGER, s VARCHAR(10))");
            db.query("INSERT INTO t VALUES (1, '12'), (2, 'x'), (3, '7'), (4, NULL), (5, 'y7')");
            assertEquals(List.of(List.of(19L)), db.query(
                    "SELECT sum(CASE WHEN s LIKE '1%' OR s = '7' THEN CAST(s AS INTEGER) END) FROM t").rows());
            assertEquals(List.of(Arrays.asList(1, 12), Arrays.asList(3, 7), Arrays.asList(4, null)),
                    db.query("SELECT k, CAST(s AS INTEGER) FROM t WHERE k IN (1, 3, 4) ORDER BY k").rows());
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> db.query("SELECT k, CAST(s AS INTEGER) FROM t ORDER BY k"));
            assertTrue(e.getMessage().contains("x") || e.getMessage().contains("y7"), e.getMessage());
        }
    }
}
