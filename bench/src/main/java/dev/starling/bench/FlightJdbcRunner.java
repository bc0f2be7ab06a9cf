package dev.starling.bench;

import dev.starling.exec.BackendMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** Starling as analysts meet it: a Flight SQL JDBC driver connection to a server, its session set to one backend. */
final class FlightJdbcRunner implements QueryRunner {
    private final Connection connection;

    FlightJdbcRunner(int port, BackendMode backend) throws SQLException {
        connection = DriverManager.getConnection(url(port));
        try (Statement st = connection.createStatement()) {
            st.execute("SET backend = '" + backend.name().toLowerCase(Locale.ROOT) + "'");
        }
    }

    /** The JDBC URL of a Flight SQL server on this host's loopback {@code port}, without TLS. */
    static String url(int port) {
        return "jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false";
    }

    @Override
    public long run(String sql) throws SQLException {
        return JdbcResults.readAll(connection, sql);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
