package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The 13 SSB query texts run on DuckDB and find rows in the generated SF 0.01 data. */
class SsbQueriesTest {
    private static Connection duck;

    @BeforeAll
    static void load() throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        DuckDbCopy.copy(GeneratedData.ssb(), duck);
    }

    @AfterAll
    static void close() throws SQLException {
        duck.close();
    }

    static Stream<String> queries() {
        return SsbQueries.names().stream();
    }

    /** Aggregates over no rows would give one NULL row (Q1.x), so the revenue is checked, not the row count. */
    @ParameterizedTest(name = "Q{0}")
    @MethodSource("queries")
    void findsRows(String name) throws SQLException {
        String sql = SsbQueries.query(name);
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), "Q" + name + " returned no rows (Q3.4 expects about one: see SsbLineOrders.SEED)");
            int revenue = rs.findColumn(name.startsWith("4") ? "profit" : "revenue");
            assertTrue(rs.getLong(revenue) > 0, "Q" + name + " has no revenue in its first row");
        }
    }

    @Test
    void namesAndTexts() {
        assertEquals(13, SsbQueries.names().size());
        assertEquals("1.1", SsbQueries.names().get(0));
        assertEquals("4.3", SsbQueries.names().get(12));
        for (String name : SsbQueries.names()) {
            String sql = SsbQueries.query(name);
            assertTrue(sql.startsWith("select"), name);
            assertTrue(sql.contains("dwdate"), name);
            assertFalse(sql.contains(";") || sql.contains("--"), name);
        }
        assertThrows(IllegalArgumentException.class, () -> SsbQueries.query("5.1"));
    }
}
