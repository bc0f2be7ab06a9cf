package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.engine.data.SessionNames;
import dev.starling.planner.sql.StarlingSqlException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code SET schema}: an unqualified name is the session schema's table or view where it has one,
 * else the default schema's; CREATE makes into it; a view made there keeps reading its tables
 * whatever schema a later session has.
 */
class SessionSchemaTest {

    private static List<List<Object>> rows(Starling db, String sql) {
        return db.query(sql).rows();
    }

    private static Starling twoSchemas() {
        Starling db = Starling.inMemory();
        db.query("CREATE TABLE t (k INT)");
        db.query("INSERT INTO t VALUES (1)");
        db.query("CREATE TABLE only_default (k INT)");
        db.query("INSERT INTO only_default VALUES (10)");
        db.query("CREATE TABLE s.t (k INT)");
        db.query("INSERT INTO s.t VALUES (2)");
        return db;
    }

    @Test
    void unqualifiedNamesReadTheSessionSchemaFirst() {
        try (Starling db = twoSchemas()) {
            String query = "SELECT t.k, (SELECT max(k) FROM only_default) AS d FROM t";
            assertEquals(List.of(List.of(1, 10)), rows(db, query));
            db.query("SET schema = 's'");
            assertEquals("s", db.settings().schema());
            // the same text, planned again for the schema: the plan cache tells the two apart
            assertEquals(List.of(List.of(2, 10)), rows(db, query));
            assertEquals(List.of(List.of(1)), rows(db, "SELECT k FROM starling.t"));
            assertEquals(List.of(List.of(3)), rows(db, "WITH t AS (SELECT 3 AS k) SELECT k FROM t"),
                    "a WITH item hides the schema's table");
            assertEquals(List.of(List.of(2, 1)), rows(db, "SELECT a.k, b.k FROM t AS a CROSS JOIN starling.t b"));
            assertEquals("k", db.query("DESCRIBE t").rows().get(0).get(0));
            assertTrue(db.explain("SELECT k FROM t").contains("s.t"), db.explain("SELECT k FROM t"));
            db.query("SET schema = ''");
            assertEquals(List.of(List.of(1, 10)), rows(db, query));
        }
    }

    @Test
    void informationSchemaIsASessionSchemaToo() {
        try (Starling db = twoSchemas()) {
            db.query("SET schema = 'information_schema'");
            assertEquals(List.of(List.of("s", "t")), rows(db,
                    "SELECT table_schema, table_name FROM tables WHERE table_schema = 's'"));
            assertEquals(List.of(List.of("k")), rows(db,
                    "SELECT column_name FROM columns WHERE table_schema = 's' AND table_name = 't'"));
            assertEquals(List.of(List.of(10)), rows(db, "SELECT max(k) FROM only_default"),
                    "a name information_schema lacks is the default schema's");
        }
    }

    @Test
    void dataStatementsWriteTheSessionSchemasTables() {
        try (Starling db = twoSchemas()) {
            db.query("SET schema = 's'");
            db.query("INSERT INTO t SELECT k + 1 FROM t");
            db.query("INSERT INTO only_default VALUES (11)");
            db.query("CREATE TABLE dim (k INT PRIMARY KEY)");
            db.query("CREATE TABLE made (k INT PRIMARY KEY, parent INT REFERENCES dim (k))");
            db.query("INSERT INTO made VALUES (1, NULL)");
            db.query("SET schema = ''");
            assertEquals(List.of(List.of(2), List.of(3)), rows(db, "SELECT k FROM s.t ORDER BY k"));
            assertEquals(List.of(List.of(1)), rows(db, "SELECT k FROM t"));
            assertEquals(List.of(List.of(10), List.of(11)), rows(db, "SELECT k FROM only_default ORDER BY k"),
                    "a name the schema lacks is the default schema's");
            assertEquals(List.of(List.of(1L)), rows(db, "SELECT count(*) FROM s.made"));
            assertEquals("s.dim", db.catalog().table("s.made").orElseThrow().schema().foreignKeys().get(0).referencedTable());
            assertTrue(db.catalog().table("made").isEmpty());
            db.query("SET schema = 's'");
            db.query("DROP TABLE made");
            assertTrue(db.catalog().table("s.made").isEmpty());
        }
    }

    @Test
    void aViewMadeInASchemaReadsItsTablesFromAnySession() {
        try (Starling db = twoSchemas()) {
            db.query("SET schema = 's'");
            db.query("CREATE VIEW v AS SELECT t.k * 100 AS h FROM t JOIN only_default d ON d.k > t.k");
            assertEquals(List.of(List.of(200)), rows(db, "SELECT h FROM v"));
            assertTrue(db.catalog().view("s.v").isPresent());
            assertEquals("SELECT t.k * 100 AS h FROM \"s\".t JOIN only_default d ON d.k > t.k",
                    db.catalog().view("s.v").orElseThrow().sql());
            db.query("SET schema = ''");
            assertEquals(List.of(List.of(200)), rows(db, "SELECT h FROM s.v"));
            db.query("SET schema = 's'");
            db.query("DROP VIEW v");
            assertTrue(db.catalog().view("s.v").isEmpty());
        }
    }

    @Test
    void anUploadWritesTheTableItsNameFindsElseMakesItInTheSchema() {
        try (Starling db = twoSchemas()) {
            SessionNames names = new SessionNames(db.catalog(), "s", (query, schema) -> query);
            assertEquals("s.t", names.target("t"));
            assertEquals("only_default", names.target("only_default"));
            assertEquals("s.fresh", names.target("fresh"));
            assertEquals("other.fresh", names.target("other.fresh"));
            assertEquals("fresh", new SessionNames(db.catalog(), "", (query, schema) -> query).target("fresh"));
        }
    }

    @Test
    void aSchemaIsANameOrNothing() {
        try (Starling db = Starling.inMemory()) {
            StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query("SET schema = 'a b'"));
            assertTrue(e.getMessage().contains("schema must be a schema's name (letters, digits and _), or '' for the "
                    + "default schema, not 'a b'"), e.getMessage());
            db.query("SET schema = 'fresh'");
            db.query("CREATE TABLE x (k INT)");
            assertTrue(db.catalog().table("fresh.x").isPresent());
            db.query("SET schema = default");
            assertEquals("", db.settings().schema());
        }
    }
}
