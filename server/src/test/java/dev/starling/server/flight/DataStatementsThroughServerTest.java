package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables made, filled and loaded through the JDBC driver are there after the server and its
 * engine restart on the same data directory; a prepared query sees rows inserted after it was
 * prepared; a failed insert leaves the table as it was.
 */
class DataStatementsThroughServerTest {
    @TempDir
    Path dir;

    private static Connection connect(FlightSqlServer server) throws SQLException {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false");
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void writesSurviveARestart() throws Exception {
        Path data = dir.resolve("data");
        // LOAD reads from the data directory's import/ unless load.allowed_dirs says otherwise
        Path csv = Files.createDirectories(data.resolve("import")).resolve("more.csv");
        Files.writeString(csv, "k,name,parent\n10,ten,1\n11,eleven,2\n");
        try (Starling db = Starling.open(data); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             Connection c = connect(server); Statement st = c.createStatement()) {
            assertEquals(0, st.executeUpdate("CREATE TABLE parent (k INTEGER PRIMARY KEY, label VARCHAR(10))"));
            assertEquals(2, st.executeUpdate("INSERT INTO parent VALUES (1, 'a'), (2, 'b')"));
            assertEquals(0, st.executeUpdate("CREATE TABLE item (k BIGINT NOT NULL, name VARCHAR(20), "
                    + "parent INTEGER REFERENCES parent (k), PRIMARY KEY (k))"));
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM item")) {
                assertEquals(3, st.executeUpdate("INSERT INTO item SELECT k * 100, label, k FROM parent UNION ALL "
                        + "SELECT 300, 'c', 2"));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(3, rs.getLong(1));
                }
                assertEquals(2, st.executeUpdate("LOAD INTO item FROM 'more.csv'"));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(5, rs.getLong(1));
                }
            }
            // A NULL into the NOT NULL key: the whole statement fails and no row of it stays.
            SQLException e = assertThrows(SQLException.class,
                    () -> st.executeUpdate("INSERT INTO item (k, name) VALUES (7, 'x'), (NULL, 'y')"));
            assertTrue(e.getMessage().contains("NOT NULL"), e.getMessage());
            assertEquals(5, count(c, "SELECT count(*) FROM item"));
        }
        try (Starling db = Starling.open(data); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             Connection c = connect(server)) {
            assertEquals(5, count(c, "SELECT count(*) FROM item"));
            assertEquals(3, count(c, "SELECT count(*) FROM item JOIN parent ON item.parent = parent.k WHERE label = 'b'"));
            try (Statement st = c.createStatement()) {
                st.executeUpdate("DROP TABLE item");
            }
        }
        try (Starling db = Starling.open(data)) {
            assertTrue(db.catalog().table("item").isEmpty());
            assertEquals(2, db.catalog().require("parent").rowCount());
        }
    }
}
