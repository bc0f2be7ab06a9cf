package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Views through the JDBC driver: made, read, listed by DatabaseMetaData as VIEW, and still there after a restart. */
class ViewsThroughServerTest {
    @TempDir
    Path dir;

    @Test
    void aViewMadeThroughJdbcIsListedAndSurvivesARestart() throws Exception {
        try (Starling db = Starling.open(dir); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             Connection c = connect(server); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE sales (region VARCHAR(10), amount DECIMAL(10,2))");
            st.executeUpdate("INSERT INTO sales VALUES ('north', 10.50), ('south', 4.25), ('north', 1.00)");
            st.executeUpdate("CREATE VIEW by_region AS SELECT region, sum(amount) AS total FROM sales GROUP BY region");
            DatabaseMetaData meta = c.getMetaData();
            List<String> listed = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"VIEW"})) {
                while (rs.next()) {
                    listed.add(rs.getString("TABLE_NAME") + " " + rs.getString("TABLE_TYPE"));
                }
            }
            assertEquals(List.of("by_region VIEW"), listed);
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(null, null, "by_region", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(List.of("region", "total"), columns);
        }
        try (Starling db = Starling.open(dir); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             Connection c = connect(server); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT region, total FROM by_region ORDER BY region")) {
            assertTrue(rs.next());
            assertEquals("north", rs.getString(1));
            assertEquals(0, new java.math.BigDecimal("11.50").compareTo(rs.getBigDecimal(2)));
            assertTrue(rs.next());
            assertEquals("south", rs.getString(1));
        }
    }

    private static Connection connect(FlightSqlServer server) throws Exception {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false");
    }
}
