package dev.starling.bench;

import dev.starling.exec.BackendMode;
import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A Starling server already running, reached as users reach it, through the Flight SQL JDBC
 * driver. A benchmark's data is put there by the server's own GENERATE into a schema of its own
 * (the generator and scale factor of the copy made here for DuckDB, so both hold the same rows),
 * unless that schema holds it already; each client's session reads that schema ({@code SET
 * schema}), so the workload's queries run as written.
 */
final class RunningServer {
    private final String address;
    private final String url;
    private final Properties login = new Properties();

    /** The server at {@code hostAndPort}; {@code user} null where it asks for no login. */
    RunningServer(String hostAndPort, boolean tls, String user, String password) {
        this.address = hostAndPort;
        this.url = FlightJdbcRunner.url(hostAndPort, tls);
        if (user != null) {
            login.setProperty("user", user);
            login.setProperty("password", password == null ? "" : password);
        }
    }

    String address() {
        return address;
    }

    /**
     * The schema that holds {@code workload}'s tables at {@code scaleFactor} on the server, generated
     * there if it holds none; an error if it holds other tables or row counts than {@code local},
     * the same data generated here.
     */
    String ready(Workload workload, double scaleFactor, Catalog local) throws SQLException {
        String dataset = workload.dataset();
        String schema = "bench_" + dataset + "_sf" + BigDecimal.valueOf(scaleFactor).stripTrailingZeros()
                .toPlainString().replace('.', '_');
        Map<String, Long> expected = new TreeMap<>();
        for (Table t : local.tables()) {
            expected.put(t.name(), t.rowCount());
        }
        try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
            Map<String, Long> there = rowCounts(st, schema);
            if (there.isEmpty()) {
                long start = System.nanoTime();
                st.execute("GENERATE " + dataset.toUpperCase(Locale.ROOT) + " SCALE FACTOR " + scaleFactor + " SCHEMA " + schema);
                System.out.printf("%s SF %s generated on the server into schema %s in %.1f s%n", dataset, scaleFactor,
                        schema, (System.nanoTime() - start) / 1e9);
                there = rowCounts(st, schema);
            }
            if (!there.equals(expected)) {
                throw new IllegalStateException("schema " + schema + " on the server at " + address + " holds " + there
                        + ", not " + dataset + " at SF " + scaleFactor + " " + expected + ": drop its tables to have it "
                        + "generated again");
            }
        }
        return schema;
    }

    /** The tables of {@code schema} on the server, by their names within it, with their row counts. */
    private static Map<String, Long> rowCounts(Statement st, String schema) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (ResultSet rs = st.executeQuery("SHOW TABLES")) {
            while (rs.next()) {
                if (rs.getString(1).equals(schema) && rs.getString(3).equals("BASE TABLE")) {
                    counts.put(rs.getString(2), rs.getLong(4));
                }
            }
        }
        return counts;
    }

    /** A client of the server asking for {@code backend}, reading {@code schema}; the caller closes it. */
    QueryRunner client(BackendMode backend, String schema) throws SQLException {
        return new FlightJdbcRunner(url, login, backend, schema);
    }
}
