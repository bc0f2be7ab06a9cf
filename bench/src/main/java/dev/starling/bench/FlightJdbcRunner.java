package dev.starling.bench;

import dev.starling.difftest.ResultRows;
import dev.starling.exec.BackendMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;

/**
 * Starling as analysts meet it: a Flight SQL JDBC driver connection to a server, its session set
 * to one backend and to the schema the benchmark's tables are in.
 */
final class FlightJdbcRunner implements QueryRunner {
    private final Connection connection;

    /** A connection to the server on this host's loopback {@code port}, without TLS or a login. */
    FlightJdbcRunner(int port, BackendMode backend) throws SQLException {
        this(url(port), new Properties(), backend, "");
    }

    /** A connection to {@code url} with {@code login} (user and password, where the server asks for them). */
    FlightJdbcRunner(String url, Properties login, BackendMode backend, String schema) throws SQLException {
        connection = DriverManager.getConnection(url, login);
        try (Statement st = connection.createStatement()) {
            st.execute("SET backend = '" + backend.name().toLowerCase(Locale.ROOT) + "'");
            if (!schema.isEmpty()) {
                st.execute("SET schema = '" + schema + "'");
            }
        }
    }

    /** The JDBC URL of a Flight SQL server on this host's loopback {@code port}, without TLS. */
    static String url(int port) {
        return url("127.0.0.1:" + port, false);
    }

    /** The JDBC URL of the Flight SQL server at {@code hostAndPort}, with TLS or without. */
    static String url(String hostAndPort, boolean tls) {
        return "jdbc:arrow-flight-sql://" + hostAndPort + "/?useEncryption=" + tls;
    }

    @Override
    public long run(String sql) throws SQLException {
        return JdbcResults.readAll(connection, sql);
    }

    @Override
    public ResultRows answer(String sql) throws SQLException {
        return ResultRows.query(connection, sql);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
