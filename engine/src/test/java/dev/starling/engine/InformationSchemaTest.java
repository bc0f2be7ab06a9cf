package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code information_schema} describes the catalog as queries read it: its schemas, its tables
 * (a dotted name's prefix their schema) and their columns with types, precision, scale, length
 * and nullability, as of the statement (a table created or dropped since shows, or not, though the
 * same query text was planned before).
 */
class InformationSchemaTest {
    @Test
    void describesTheCatalogAsOfEachStatement() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (id BIGINT PRIMARY KEY, price DECIMAL(12,2), name VARCHAR(20), day DATE NOT NULL)");
            db.query("CREATE TABLE ssb.part (p INT)");
            String tables = "SELECT table_schema, table_name, table_type FROM information_schema.tables ORDER BY table_name";
            assertEquals(List.of(List.of("ssb", "part", "BASE TABLE"), List.of("", "t", "BASE TABLE")), db.query(tables).rows());
            assertEquals(List.of(List.of("starling", ""), List.of("starling", "information_schema"), List.of("starling", "ssb")),
                    db.query("SELECT catalog_name, schema_name FROM information_schema.schemata ORDER BY schema_name").rows());
            assertEquals(List.of(
                    row("id", 1, "BIGINT", null, null, null, "NO"),
                    row("price", 2, "DECIMAL", null, 12, 2, "YES"),
                    row("name", 3, "VARCHAR", 20, null, null, "YES"),
                    row("day", 4, "DATE", null, null, null, "NO")),
                    db.query("SELECT column_name, ordinal_position, data_type, character_maximum_length, numeric_precision, "
                            + "numeric_scale, is_nullable FROM information_schema.columns WHERE table_name = 't' "
                            + "ORDER BY ordinal_position").rows());
            db.query("DROP TABLE ssb.part");
            db.query("CREATE TABLE u (a INT)");
            assertEquals(List.of(List.of("", "t", "BASE TABLE"), List.of("", "u", "BASE TABLE")), db.query(tables).rows());
        }
    }

    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }
}
