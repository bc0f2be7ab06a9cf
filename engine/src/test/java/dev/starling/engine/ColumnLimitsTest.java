package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.planner.sql.StarlingSqlException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes keep declared column limits: a string longer than its VARCHAR(n), a number with more
 * digits than its DECIMAL(p,s), refused by INSERT and LOAD with the column named, and nothing
 * written; a loaded file's text is not quoted back.
 */
class ColumnLimitsTest {
    @TempDir
    Path dir;

    @Test
    void insertRefusesValuesPastTheirColumnsLimits() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (id INT, name VARCHAR(5), amount DECIMAL(6,2))");
            db.query("INSERT INTO t VALUES (1, 'abcde', 9999.99), (2, 'ñññññ', -9999.99)");
            assertRefused(db, "INSERT INTO t VALUES (3, 'abcdef', 1)", "name: a string of 6 characters is longer than VARCHAR(5)");
            assertRefused(db, "INSERT INTO t VALUES (3, 'a', 10000.00)", "amount: 10000.00 has more digits than DECIMAL(6,2)");
            assertRefused(db, "INSERT INTO t VALUES (3, 'a', 1), (4, 'b', -10000)", "amount: -10000.00 has more digits");
            assertEquals(List.of(List.of(2L)), db.query("SELECT COUNT(*) FROM t").rows());
        }
    }

    @Test
    void loadRefusesThemAtTheirPlaceWithoutQuotingTheFile() throws IOException {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (id INT, name VARCHAR(5))");
            Path file = Files.writeString(dir.resolve("long.csv"), "id,name\n1,abc\n2,secret-text\n");
            StarlingSqlException e = assertThrows(StarlingSqlException.class,
                    () -> db.query("LOAD INTO t FROM '" + file + "' FORMAT CSV"));
            assertTrue(e.getMessage().contains("line 3") && e.getMessage().contains("a string of 11 characters is longer "
                    + "than VARCHAR(5)"), e.getMessage());
            assertTrue(!e.getMessage().contains("secret"), e.getMessage());
            assertEquals(List.of(List.of(0L)), db.query("SELECT COUNT(*) FROM t").rows());
        }
    }

    private static void assertRefused(Starling db, String sql, String message) {
        StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query(sql), sql);
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
