package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.gen.TpchGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Views: a named query read wherever its name is, equal to the query written in its place; checked
 * when made (its query plans, its column names fit, it never reads itself, no table has its name);
 * durable; described by information_schema; hidden by a WITH item of the same name.
 */
class ViewsTest {
    @TempDir
    Path dir;

    @Test
    void aViewAnswersAsItsQueryWrittenInItsPlace() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            db.query("CREATE VIEW revenue (orderkey, rev) AS SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) "
                    + "FROM lineitem WHERE l_shipdate >= DATE '1995-01-01' GROUP BY l_orderkey");
            String inline = "(SELECT l_orderkey AS orderkey, sum(l_extendedprice * (1 - l_discount)) AS rev FROM lineitem "
                    + "WHERE l_shipdate >= DATE '1995-01-01' GROUP BY l_orderkey)";
            String query = "SELECT o_orderpriority, count(*), sum(r.rev) FROM orders JOIN %s r ON o_orderkey = r.orderkey "
                    + "WHERE r.rev > 100000 GROUP BY o_orderpriority ORDER BY o_orderpriority";
            List<List<Object>> expected = db.query(String.format(query, inline)).rows();
            assertEquals(5, expected.size());
            assertEquals(expected, db.query(String.format(query, "revenue")).rows());
            // a view over a view, a schema's view, and the reader's own column aliases
            db.query("CREATE VIEW ssb.big AS SELECT orderkey FROM revenue WHERE rev > 300000");
            assertEquals(db.query("SELECT count(*) FROM " + inline + " WHERE rev > 300000").rows(),
                    db.query("SELECT count(x) FROM ssb.big AS b (x)").rows());
            assertEquals(List.of("orderkey", "rev"), db.query("SELECT * FROM revenue LIMIT 1").fields().stream()
                    .map(f -> f.name()).toList());
            // a WITH item of the same name comes first where it is in scope: the body and the items after it
            assertEquals(List.of(List.of(7)), db.query("WITH revenue AS (SELECT 7 AS x) SELECT x FROM revenue").rows());
            assertEquals(db.query("SELECT count(*) FROM revenue WHERE rev > 300000").rows(),
                    db.query("WITH revenue AS (SELECT * FROM revenue WHERE rev > 300000) SELECT count(*) FROM revenue")
                            .rows());
            // and never stands for a table the view reads
            assertEquals(db.query("SELECT count(*) FROM revenue").rows(),
                    db.query("WITH lineitem AS (SELECT * FROM orders WHERE false) SELECT count(*) FROM revenue").rows());
        }
    }

    @Test
    void aViewIsCheckedWhenMade() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.001, "");
            db.query("CREATE VIEW a AS SELECT n_nationkey AS k FROM nation");
            db.query("CREATE VIEW b AS SELECT k FROM a");
            assertTrue(error(db, "CREATE OR REPLACE VIEW a AS SELECT k FROM b").contains("view a would read itself"));
            assertTrue(error(db, "CREATE VIEW nation AS SELECT 1").contains("a table named nation exists"));
            assertTrue(error(db, "CREATE TABLE a (x INT)").contains("a view named a exists"));
            assertTrue(error(db, "CREATE VIEW a AS SELECT 2").contains("view a already exists"));
            assertTrue(error(db, "CREATE VIEW c AS SELECT nope FROM nation").contains("nope"));
            assertTrue(error(db, "CREATE VIEW c (x, y) AS SELECT 1").contains("names 2 columns but its query yields 1"));
            assertTrue(error(db, "CREATE VIEW c AS DROP TABLE nation").contains("expected a query"));
            assertTrue(error(db, "CREATE VIEW c (x, x) AS SELECT 1, 2").contains("names a column twice"));
            assertTrue(error(db, "CREATE VIEW information_schema.tables AS SELECT 1").contains("holds no views"));
            assertTrue(assertThrows(StarlingSqlException.class, () -> db.prepare("CREATE VIEW c AS SELECT ? + 1"))
                    .getMessage().contains("cannot have parameters"));
            db.query("CREATE OR REPLACE VIEW a AS SELECT n_regionkey AS k FROM nation");
            assertEquals(List.of(List.of(5L)), db.query("SELECT count(DISTINCT k) FROM b").rows());
            db.query("DROP VIEW b");
            db.query("DROP VIEW IF EXISTS b");
            assertTrue(error(db, "DROP VIEW b").contains("view b does not exist"));
            assertTrue(error(db, "SELECT * FROM b").contains("'b' not found"));
        }
    }

    @Test
    void viewsAreDurableAndDescribed() throws Exception {
        try (Starling db = Starling.open(dir)) {
            db.query("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10))");
            db.query("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
            db.query("CREATE VIEW named (n) AS SELECT name FROM t WHERE id > 1");
            db.query("CREATE VIEW gone AS SELECT id FROM t");
            db.query("DROP VIEW gone");
        }
        assertTrue(Files.exists(dir.resolve("named.view")));
        try (Starling db = Starling.open(dir)) {
            assertEquals(List.of(List.of("two")), db.query("SELECT n FROM named").rows());
            assertEquals(List.of(List.of("", "named", "VIEW"), List.of("", "t", "BASE TABLE")),
                    db.query("SELECT table_schema, table_name, table_type FROM information_schema.tables "
                            + "ORDER BY table_name").rows());
            assertEquals(List.of(List.of("named", "SELECT name FROM t WHERE id > 1")),
                    db.query("SELECT table_name, view_definition FROM information_schema.views").rows());
            // a query's strings have no declared length
            assertEquals(List.of(Arrays.asList("named", "n", 1, "VARCHAR", null), Arrays.asList("t", "id", 1, "INTEGER", null),
                            List.of("t", "name", 2, "VARCHAR", 10)),
                    db.query("SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length "
                            + "FROM information_schema.columns ORDER BY table_name, ordinal_position").rows());
            assertEquals(List.of(Arrays.asList("n", "VARCHAR", true, null)), db.query("DESCRIBE named").rows());
            // a view over information_schema.columns lists its own columns too, its query planned once for them
            db.query("CREATE VIEW described AS SELECT table_name, column_name FROM information_schema.columns");
            assertEquals(List.of(List.of("described", "column_name"), List.of("described", "table_name"),
                            List.of("named", "n"), List.of("t", "id"), List.of("t", "name")),
                    db.query("SELECT * FROM described ORDER BY 1, 2").rows());
            assertEquals(2, db.query("SELECT count(*) FROM information_schema.columns WHERE table_name = 'described'")
                    .rows().get(0).get(0) instanceof Long n ? n.intValue() : -1);
        }
    }

    private static String error(Starling db, String sql) {
        return assertThrows(StarlingSqlException.class, () -> db.query(sql)).getMessage();
    }
}
