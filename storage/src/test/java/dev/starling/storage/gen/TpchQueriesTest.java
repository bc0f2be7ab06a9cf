package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 query texts, run by DuckDB on the generated SF 0.01 data, give the answers that ship
 * with io.trino.tpch ({@code qN.result}): a check of the texts and of the data at once.
 */
class TpchQueriesTest {
    private static Connection duck;

    @BeforeAll
    static void load() throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        DuckDbCopy.copy(GeneratedData.tpch(), duck);
    }

    @AfterAll
    static void close() throws SQLException {
        duck.close();
    }

    static IntStream queries() {
        return IntStream.rangeClosed(1, TpchQueries.COUNT);
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void answersMatchTheReference(int n) throws Exception {
        List<List<String>> expected = reference(n);
        List<List<Object>> actual = run(TpchQueries.query(n));
        assertEquals(expected.size(), actual.size(), "rows of q" + n);
        for (int r = 0; r < expected.size(); r++) {
            List<Object> row = actual.get(r);
            for (int c = 0; c < row.size(); c++) {
                assertCell(expected.get(r).get(c), row.get(c), "q" + n + " row " + (r + 1) + " column " + (c + 1));
            }
        }
    }

    @Test
    void textsAreStandardSql() {
        for (int n = 1; n <= TpchQueries.COUNT; n++) {
            String sql = TpchQueries.query(n).toLowerCase();
            for (String presto : List.of("create ", "decimal '", "date(", "substr(", "--", ";")) {
                assertFalse(sql.contains(presto), "q" + n + " contains " + presto);
            }
        }
        assertTrue(TpchQueries.query(15).startsWith("WITH revenue AS ("));
        assertTrue(TpchQueries.query(11).contains("AS \"value\""));
        assertThrows(IllegalArgumentException.class, () -> TpchQueries.query(0));
        assertThrows(IllegalArgumentException.class, () -> TpchQueries.query(23));
    }

    private static List<List<Object>> run(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The reference rows: '|'-separated, after a header line; "null" is NULL. */
    private static List<List<String>> reference(int n) throws IOException {
        try (InputStream in = TpchQueriesTest.class.getResourceAsStream("/io/trino/tpch/queries/q" + n + ".result")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            return Arrays.stream(lines).skip(1).filter(l -> !l.isBlank())
                    .map(l -> Arrays.asList(l.split("\\|", -1))).toList();
        }
    }

    /** Numbers agree to the digits the reference shows (it rounds averages and ratios). */
    private static void assertCell(String expected, Object actual, String where) {
        if (expected.equals("null")) {
            assertEquals(null, actual, where);
        } else if (actual instanceof Number number) {
            BigDecimal e = new BigDecimal(expected);
            BigDecimal a = new BigDecimal(number.toString());
            BigDecimal unit = BigDecimal.ONE.movePointLeft(Math.max(0, e.scale()));
            assertTrue(a.subtract(e).abs().compareTo(unit) <= 0, where + ": expected " + expected + ", got " + actual);
        } else {
            assertEquals(expected, String.valueOf(actual), where);
        }
    }
}
