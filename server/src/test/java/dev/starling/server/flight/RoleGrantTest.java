package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GRANT and REVOKE change a configured user's role for the server's clients and outlive a restart
 * (kept in the data directory, outranking the configuration); only an administrator runs them, on
 * users and roles that exist, and the last administrator stays one.
 */
class RoleGrantTest {
    private static final String ANALYST = FlightSqlServer.hashPassword("s3cret".toCharArray());
    private static final String OPS = FlightSqlServer.hashPassword("r00t".toCharArray());

    @TempDir
    Path dir;

    @Test
    void grantAndRevokeChangeWhatAUserMayDoAndOutliveARestart() throws Exception {
        try (Starling db = Starling.open(dir); FlightSqlServer server = start(db)) {
            try (Connection analyst = connect(server, "analyst", "s3cret"); Connection ops = connect(server, "ops", "r00t")) {
                assertRefused(analyst, "CREATE TABLE t (a INT)", "user analyst (role reader) may not run CREATE TABLE");
                assertRefused(analyst, "GRANT admin TO analyst", "user analyst (role reader) may not run GRANT");
                run(ops, "GRANT admin TO analyst");
                run(analyst, "CREATE TABLE t (a INT)");
                assertRefused(ops, "GRANT admin TO mallory", "no user mallory in auth.users");
                assertRefused(ops, "GRANT superuser TO analyst", "no role superuser: the roles are admin and reader");
                assertRefused(ops, "REVOKE reader FROM analyst", "every user may read");
            }
        }
        assertTrue(Files.exists(dir.resolve(RoleGrants.FILE)));
        try (Starling db = Starling.open(dir); FlightSqlServer server = start(db)) {
            try (Connection analyst = connect(server, "analyst", "s3cret"); Connection ops = connect(server, "ops", "r00t")) {
                run(analyst, "CREATE TABLE u (a INT)");
                run(ops, "REVOKE admin FROM analyst");
                assertRefused(analyst, "DROP TABLE u", "user analyst (role reader) may not run DROP TABLE");
                assertRefused(ops, "REVOKE admin FROM ops", "user ops is the last administrator");
                run(ops, "GRANT admin TO analyst");
                run(analyst, "REVOKE admin FROM ops");
                assertRefused(ops, "DROP TABLE u", "user ops (role reader) may not run DROP TABLE");
            }
        }
    }

    private static FlightSqlServer start(Starling db) throws Exception {
        return FlightSqlServer.start(db, new ServerConfig(new ServerConfig.Listen("127.0.0.1", 0), null, null,
                new ServerConfig.Auth("password", List.of(new ServerConfig.User("analyst", ANALYST),
                        new ServerConfig.User("ops", OPS, "admin")), 5),
                null, null, null, null, null, null, null));
    }

    private static Connection connect(FlightSqlServer server, String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port()
                + "/?useEncryption=false&user=" + user + "&password=" + password);
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    private static void assertRefused(Connection c, String sql, String message) {
        SQLException e = assertThrows(SQLException.class, () -> run(c, sql), sql);
        assertTrue(e.getMessage().contains(message), sql + ": " + e.getMessage());
    }
}
