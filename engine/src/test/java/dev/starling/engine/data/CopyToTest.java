package dev.starling.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.gen.TpchGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * COPY writes a query's rows (or a table's) to an Arrow IPC file (the file format or the stream
 * format), a CSV file or a Parquet file under the load directories, whole or not at all, and LOAD reads each back
 * into a table equal to what was written: every type, NULLs, empty strings, quotes and commas in
 * strings. A file outside the directories is refused; a COPY that fails leaves the file it would
 * replace as it was; an Arrow file that does not fit its table is refused whole, without quoting
 * its values, and one that is not Arrow at all is refused as such.
 */
class CopyToTest {
    /** Every column type, NULLs in each, an empty string, a quote and a comma. */
    private static final String ROWS = "SELECT n_nationkey, CAST(n_nationkey AS BIGINT) * 1000000000 AS big, "
            + "CASE WHEN n_nationkey % 5 = 0 THEN NULL ELSE CAST(n_nationkey * 0.125 AS DECIMAL(18,6)) END AS amount, "
            + "CASE WHEN n_nationkey % 4 = 0 THEN NULL WHEN n_nationkey % 3 = 0 THEN DATE '1992-02-29' "
            + "WHEN n_nationkey % 3 = 1 THEN DATE '1998-12-31' ELSE DATE '1969-07-20' END AS day, "
            + "CASE WHEN n_nationkey % 6 = 0 THEN NULL WHEN n_nationkey % 6 = 1 THEN '' "
            + "ELSE n_name || ', \"' || n_comment END AS words, "
            + "CASE WHEN n_nationkey % 7 = 0 THEN NULL ELSE n_nationkey / 3.0E0 END AS ratio, "
            + "CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE n_nationkey % 2 = 0 END AS even FROM nation";
    private static final String TABLE = "CREATE TABLE back (k INTEGER, big BIGINT, amount DECIMAL(18,6), day DATE, "
            + "words VARCHAR(200), ratio DOUBLE, even BOOLEAN)";

    @TempDir
    Path dir;
    private Starling db;

    @BeforeEach
    void open() {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.001, "");
        db.setIntakeLimits(IntakeLimits.of(List.of(dir), 1));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aQueryCopiedToArrowCsvOrParquetLoadsBackEqual() throws Exception {
        List<List<Object>> expected = db.query(ROWS + " ORDER BY n_nationkey").rows();
        for (String file : List.of("nations.arrow", "nations.arrows", "nations.csv", "nations.parquet")) {
            assertEquals(List.of(List.of(25L)), db.query("COPY (" + ROWS + ") TO '" + file + "'").rows(), file);
            db.query(TABLE);
            assertEquals(List.of(List.of(25L)), db.query("LOAD back FROM '" + file + "'").rows(), file);
            assertEquals(expected, db.query("SELECT * FROM back ORDER BY k").rows(), file);
            db.query("DROP TABLE back");
        }
        assertEquals(List.of(".", "nations.arrow", "nations.arrows", "nations.csv", "nations.parquet"), files(),
                "no partial file is left");
        // the file format starts with its magic; the stream format with a message
        assertTrue(new String(Files.readAllBytes(dir.resolve("nations.arrow")), 0, 6, StandardCharsets.US_ASCII).equals("ARROW1"));
        assertFalse(new String(Files.readAllBytes(dir.resolve("nations.arrows")), 0, 6, StandardCharsets.US_ASCII).equals("ARROW1"));
    }

    @Test
    void aTableCopiesWhole() {
        for (String format : List.of("ARROW", "ARROW STREAM")) {
            assertEquals(List.of(List.of(1500L)), db.query("COPY orders TO 'orders.data' FORMAT " + format).rows());
            db.query("CREATE TABLE copied (k BIGINT, cust BIGINT, status VARCHAR(1), price DECIMAL(15,2), day DATE, "
                    + "priority VARCHAR(15), clerk VARCHAR(15), ship INTEGER, comment VARCHAR(79))");
            db.query("LOAD copied FROM 'orders.data' FORMAT ARROW");
            // the copy's key columns are BIGINT where orders has INTEGER: compared as text
            assertEquals(text(db.query("SELECT * FROM orders ORDER BY o_orderkey").rows()),
                    text(db.query("SELECT * FROM copied ORDER BY k").rows()), format);
            db.query("DROP TABLE copied");
        }
    }

    @Test
    void aFileThatIsNotArrowIsRefusedAsSuch() throws Exception {
        Files.writeString(dir.resolve("notes.arrows"), "r_regionkey,r_name\n0,AFRICA\n");
        db.query("CREATE TABLE notes (k INTEGER, name VARCHAR(25))");
        StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query("LOAD notes FROM 'notes.arrows'"));
        assertTrue(e.getMessage().startsWith("notes.arrows is not an Arrow IPC file or stream"), e.getMessage());
        assertFalse(e.getMessage().contains("AFRICA"), e.getMessage());
    }

    @Test
    void copyWritesOnlyUnderTheLoadDirectoriesAndWholeOrNotAtAll() throws Exception {
        StarlingSqlException outside = assertThrows(StarlingSqlException.class,
                () -> db.query("COPY region TO '" + dir.getParent().resolve("out.csv") + "'"));
        assertEquals("COPY writes only files under " + dir + " (load.allowed_dirs); " + dir.getParent().resolve("out.csv")
                + " is not", outside.getMessage());
        assertThrows(StarlingSqlException.class, () -> db.query("COPY region TO '../out.csv'"));
        Path kept = Files.writeString(dir.resolve("regions.csv"), "kept");
        assertThrows(RuntimeException.class, () -> db.query("COPY (SELECT r_regionkey / (r_regionkey - 2) FROM region) "
                + "TO 'regions.csv'"));
        assertEquals("kept", Files.readString(kept), "a failed COPY leaves the file it would replace");
        assertEquals(List.of(".", "regions.csv"), files());
        StarlingSqlException format = assertThrows(StarlingSqlException.class, () -> db.query("COPY region TO 'regions.txt'"));
        assertTrue(format.getMessage().contains("give FORMAT ARROW, ARROW STREAM, CSV or PARQUET"), format.getMessage());
    }

    @Test
    void anArrowFileThatDoesNotFitTheTableIsRefusedWhole() {
        db.query("COPY (SELECT r_regionkey, r_name FROM region) TO 'regions.arrow'");
        db.query("CREATE TABLE narrow (k INTEGER)");
        StarlingSqlException columns = assertThrows(StarlingSqlException.class, () -> db.query("LOAD narrow FROM 'regions.arrow'"));
        assertEquals("regions.arrow has 2 columns, table narrow 1", columns.getMessage());
        db.query("CREATE TABLE swapped (name VARCHAR(25), k INTEGER)");
        StarlingSqlException type = assertThrows(StarlingSqlException.class, () -> db.query("LOAD swapped FROM 'regions.arrow'"));
        assertTrue(type.getMessage().startsWith("regions.arrow: its column 1 (r_regionkey) holds Int(32, true), which "
                + "cannot go into VARCHAR(25) column name"), type.getMessage());
        db.query("CREATE TABLE short (k INTEGER, name VARCHAR(5))");
        StarlingSqlException value = assertThrows(StarlingSqlException.class, () -> db.query("LOAD short FROM 'regions.arrow'"));
        assertEquals("regions.arrow, row 1, column name: the value does not fit VARCHAR(5)", value.getMessage());
        assertEquals(List.of(List.of(0L)), db.query("SELECT count(*) FROM short").rows(), "nothing was loaded");
        assertFalse(db.query("SELECT count(*) FROM region").rows().isEmpty());
    }

    private static List<String> text(List<List<Object>> rows) {
        return rows.stream().map(Object::toString).toList();
    }

    private List<String> files() {
        try (var listed = Files.walk(dir, 1)) {
            return listed.map(p -> dir.relativize(p).toString()).map(s -> s.isEmpty() ? "." : s).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
