package dev.starling.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.gen.TpchGenerator;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet in and out, checked against DuckDB's own Parquet reader and writer: a table Starling
 * copies to Parquet reads in DuckDB with the same types and answers; files DuckDB writes with each
 * codec it offers (Snappy, ZSTD, GZIP, LZ4_RAW, uncompressed) load into Starling and answer as the
 * table they came from; columns that do not map (timestamps, lists) are
 * refused by name before a row is loaded, leaving the table as it was; so is a codec it does not read
 * (Brotli).
 */
class ParquetInteropTest {
    private static final String LINEITEM = "CREATE TABLE li (l_orderkey BIGINT, l_partkey INTEGER, l_suppkey INTEGER, "
            + "l_linenumber INTEGER, l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), "
            + "l_tax DECIMAL(15,2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1), l_shipdate DATE, "
            + "l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), "
            + "l_comment VARCHAR(44))";
    private static final String SUMMARY = "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), "
            + "sum(l_extendedprice), min(l_shipdate), max(l_receiptdate), max(l_comment), sum(l_orderkey), "
            + "sum(l_partkey), count(DISTINCT l_shipmode) FROM %s GROUP BY l_returnflag, l_linestatus "
            + "ORDER BY l_returnflag, l_linestatus";

    @TempDir
    Path dir;
    private Starling db;
    private Connection duck;

    @BeforeEach
    void open() throws SQLException {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.01, "");
        db.setIntakeLimits(IntakeLimits.of(List.of(dir), 1));
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void close() throws SQLException {
        duck.close();
        db.close();
    }

    @Test
    void aTableCopiedToParquetReadsInDuckDbWithItsTypesAndAnswers() throws SQLException {
        assertEquals(List.of(List.of(60_175L)), db.query("COPY lineitem TO 'lineitem.parquet'").rows());
        String file = dir.resolve("lineitem.parquet").toString();
        List<String> types = new ArrayList<>();
        try (Statement s = duck.createStatement();
             ResultSet r = s.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
            while (r.next()) {
                types.add(r.getString(1) + " " + r.getString(2));
            }
        }
        assertEquals(List.of("l_orderkey BIGINT", "l_partkey INTEGER", "l_suppkey INTEGER", "l_linenumber INTEGER",
                "l_quantity DECIMAL(15,2)", "l_extendedprice DECIMAL(15,2)", "l_discount DECIMAL(15,2)",
                "l_tax DECIMAL(15,2)", "l_returnflag VARCHAR", "l_linestatus VARCHAR", "l_shipdate DATE",
                "l_commitdate DATE", "l_receiptdate DATE", "l_shipinstruct VARCHAR", "l_shipmode VARCHAR",
                "l_comment VARCHAR"), types);
        assertEquals(normalized(db.query(SUMMARY.formatted("lineitem")).rows()),
                duckRows(SUMMARY.formatted("read_parquet('" + file + "')")));
    }

    @Test
    void filesDuckDbWritesWithEachCodecLoadAndAnswerAsTheirTable() throws SQLException {
        db.query("COPY lineitem TO 'source.parquet'");
        String source = dir.resolve("source.parquet").toString();
        List<List<Object>> expected = normalized(db.query(SUMMARY.formatted("lineitem")).rows());
        for (String codec : List.of("snappy", "zstd", "gzip", "lz4_raw", "uncompressed")) {
            Path file = dir.resolve("duck_" + codec + ".parquet");
            duckRun("COPY (SELECT * FROM read_parquet('" + source + "')) TO '" + file + "' (FORMAT PARQUET, COMPRESSION "
                    + codec + ", ROW_GROUP_SIZE 10000)");
            db.query(LINEITEM);
            assertEquals(List.of(List.of(60_175L)), db.query("LOAD li FROM '" + file.getFileName() + "'").rows(), codec);
            assertEquals(expected, normalized(db.query(SUMMARY.formatted("li")).rows()), codec);
            db.query("DROP TABLE li");
        }
    }

    @Test
    void columnsThatDoNotMapAreRefusedByNameAndLoadNothing() throws SQLException {
        db.query("CREATE TABLE t (k INTEGER, v VARCHAR(20))");
        db.query("INSERT INTO t VALUES (1, 'kept')");
        duckRun("COPY (SELECT 2 AS k, TIMESTAMP '2026-12-07 10:00:00' AS v) TO '" + dir.resolve("ts.parquet")
                + "' (FORMAT PARQUET)");
        duckRun("COPY (SELECT 2 AS k, [1, 2] AS v) TO '" + dir.resolve("list.parquet") + "' (FORMAT PARQUET)");
        duckRun("COPY (SELECT 2 AS k, 'x' AS v) TO '" + dir.resolve("brotli.parquet") + "' (FORMAT PARQUET, COMPRESSION brotli)");
        duckRun("COPY (SELECT 2 AS k) TO '" + dir.resolve("narrow.parquet") + "' (FORMAT PARQUET)");
        assertRefused("LOAD t FROM 'ts.parquet'", "ts.parquet: its column 2 (v) holds");
        assertRefused("LOAD t FROM 'list.parquet'", "list.parquet: its column 2 (v) holds a nested or repeated column");
        assertRefused("LOAD t FROM 'narrow.parquet'", "narrow.parquet has 1 columns, table t 2");
        assertRefused("LOAD t FROM 'brotli.parquet'", "compressed with BROTLI are not supported");
        assertRefused("LOAD t FROM 'ts.parquet' FORMAT CSV", "");
        Path notParquet = dir.resolve("fake.parquet");
        try {
            Files.writeString(notParquet, "k,v\n1,a\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertRefused("LOAD t FROM 'fake.parquet'", "fake.parquet is not a Parquet file");
        assertEquals(List.of(List.of(1, "kept")), db.query("SELECT * FROM t").rows(), "nothing was loaded");
    }

    private void assertRefused(String sql, String says) {
        StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query(sql), sql);
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    private void duckRun(String sql) throws SQLException {
        try (Statement s = duck.createStatement()) {
            s.execute(sql);
        }
    }

    private List<List<Object>> duckRows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= n; c++) {
                    row.add(r.getObject(c));
                }
                rows.add(row);
            }
        }
        return normalized(rows);
    }

    /** Values as text, decimals without trailing zeros: the two engines' Java types differ. */
    private static List<List<Object>> normalized(List<List<Object>> rows) {
        return rows.stream().map(row -> row.stream().map(v -> (Object) (v instanceof BigDecimal d
                ? d.stripTrailingZeros().toPlainString() : String.valueOf(v))).toList()).toList();
    }
}
