package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.planner.sql.StarlingSqlException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INSERT and LOAD keep primary keys and declared column limits: a write that repeats a key
 * (against the table or within itself), or puts a string longer than its VARCHAR(n) or a number
 * with more digits than its DECIMAL(p,s) in a column, fails as a whole, names the column (and the
 * key's value; a loaded file's text is not quoted back) and changes nothing, so the plans that
 * trust keys (a dense foreign-key join, grouping by the key) stay right.
 */
class WriteConstraintsTest {
    @TempDir
    Path dir;

    @Test
    void aWriteThatRepeatsAKeyFailsWholeAndTheJoinsThatTrustKeysStayRight() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE d (k INT PRIMARY KEY, w INT)");
            db.query("CREATE TABLE f (fk INT REFERENCES d (k), v INT)");
            db.query("INSERT INTO d VALUES (1, 10), (2, 20)");
            db.query("INSERT INTO f VALUES (1, 1), (2, 1), (2, 1)");
            assertRefused(db, "INSERT INTO d VALUES (3, 30), (2, 99)", "duplicate primary key (k) = (2) in table d");
            assertRefused(db, "INSERT INTO d VALUES (5, 1), (5, 2)", "duplicate primary key (k) = (5) in table d");
            assertRefused(db, "INSERT INTO d VALUES (NULL, 1)", "column k is NOT NULL");
            assertEquals(List.of(List.of(2L)), db.query("SELECT COUNT(*) FROM d").rows());
            assertEquals(List.of(List.of(50L)), db.query("SELECT SUM(w) FROM f JOIN d ON fk = k").rows());
            assertEquals(List.of(List.of(1, 1L), List.of(2, 1L)), db.query("SELECT k, COUNT(*) FROM d GROUP BY k ORDER BY k").rows());
            db.query("INSERT INTO d VALUES (3, 30)");
            assertEquals(List.of(List.of(3L)), db.query("SELECT COUNT(*) FROM d").rows());
        }
    }

    @Test
    void keysOfSeveralColumnsAreComparedWhole() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE c (a VARCHAR(5), b DATE, m DECIMAL(6,2), w INT, PRIMARY KEY (a, b, m))");
            db.query("INSERT INTO c VALUES ('x', DATE '2000-01-01', 1.50, 1), ('x', DATE '2000-01-02', 1.50, 2), "
                    + "('y', DATE '2000-01-01', 1.50, 3), ('x', DATE '2000-01-01', 2.50, 4)");
            assertRefused(db, "INSERT INTO c VALUES ('x', DATE '2000-01-01', 1.5, 5)",
                    "duplicate primary key (a, b, m) = ('x', DATE '2000-01-01', 1.50) in table c");
            // keys spanning more than 2^63 packed: compared as tuples
            db.query("CREATE TABLE wide (p BIGINT, q BIGINT, PRIMARY KEY (p, q))");
            db.query("INSERT INTO wide VALUES (-9000000000000000000, 1), (9000000000000000000, 1), (0, 2)");
            assertRefused(db, "INSERT INTO wide VALUES (9000000000000000000, 1)",
                    "duplicate primary key (p, q) = (9000000000000000000, 1) in table wide");
            db.query("INSERT INTO wide VALUES (9000000000000000000, 2)");
            assertEquals(List.of(List.of(4L)), db.query("SELECT COUNT(*) FROM wide").rows());
        }
    }

    @Test
    void aLoadThatRepeatsAKeyLoadsNothing() throws IOException {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE item (id INT PRIMARY KEY, price DECIMAL(8,2))");
            db.query("INSERT INTO item VALUES (1, 1.00)");
            Path repeats = Files.writeString(dir.resolve("repeats.csv"), "id,price\n2,2.00\n3,3.00\n1,9.99\n");
            assertRefused(db, "LOAD INTO item FROM '" + repeats + "' FORMAT CSV", "duplicate primary key (id) = (1) in table item");
            Path fresh = Files.writeString(dir.resolve("fresh.csv"), "id,price\n2,2.00\n3,3.00\n");
            db.query("LOAD INTO item FROM '" + fresh + "' FORMAT CSV");
            assertEquals(List.of(List.of(new BigDecimal("6.00"))), db.query("SELECT SUM(price) FROM item").rows());
        }
    }

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
