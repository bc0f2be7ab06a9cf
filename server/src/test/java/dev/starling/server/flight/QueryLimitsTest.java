package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.TpchGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What stops a query's work on the server: the session's time and memory limits, the client's deadline (also
 * for a data statement, which then keeps nothing), and a client process that dies while the query
 * computes (before its first batch is sent, when only the call's context can tell the server).
 */
class QueryLimitsTest {
    /** Every pair of lineitems with the same line number, counted: about 500 million rows, minutes of work, no row sent before the end. */
    static final String HEAVY = "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_linenumber = b.l_linenumber";

    private static Starling db;
    private static FlightSqlServer server;

    @BeforeAll
    static void start() throws Exception {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.01, "");
        server = FlightSqlServer.start(db, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        db.close();
    }

    @AfterEach
    void nothingRunsAfterwards() throws InterruptedException {
        assertTrue(awaitIdle(5), "a query still runs after the test");
    }

    static String url(int port) {
        return "jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false";
    }

    @Test
    void aSessionsTimeLimitStopsItsQuery() throws Exception {
        try (Connection c = DriverManager.getConnection(url(server.port())); Statement st = c.createStatement()) {
            st.execute("SET query_timeout = '300ms'");
            SQLException e = assertThrows(SQLException.class, () -> drain(st, HEAVY));
            assertTrue(e.getMessage().contains("the query ran past its time limit of 300 ms and was stopped "
                    + "(SET query_timeout changes the session's limit)"), e.getMessage());
            // the error comes from the server once the query has stopped
            assertEquals(0, server.runningQueries());
            assertEquals("timed_out", server.queries().recent().get(0).status());
            st.execute("SET query_timeout = 0");
            assertEquals(List.of(5L), drain(st, "SELECT count(*) FROM region"), "the session goes on");
        }
        try (Connection other = DriverManager.getConnection(url(server.port())); Statement st = other.createStatement()) {
            assertEquals(List.of(25L), drain(st, "SELECT count(*) FROM nation"), "another session has no limit");
        }
    }

    @Test
    void aSessionsMemoryLimitStopsItsQuery() throws Exception {
        String grouped = "SELECT count(*) FROM (SELECT l_orderkey, l_partkey FROM lineitem GROUP BY 1, 2) g";
        try (Connection c = DriverManager.getConnection(url(server.port())); Statement st = c.createStatement()) {
            List<Long> groups = drain(st, grouped);
            st.execute("SET memory_limit = '1MB'");
            SQLException e = assertThrows(SQLException.class, () -> drain(st, grouped));
            assertTrue(e.getMessage().contains("the query needed more than its memory limit of 1 MB for its join tables, "
                    + "groups and buffered rows"), e.getMessage());
            assertEquals("failed", server.queries().recent().get(0).status());
            st.execute("SET memory_limit = 0");
            assertEquals(groups, drain(st, grouped), "the session goes on");
        }
    }

    @Test
    void aClientsDeadlineStopsItsQuery() throws Exception {
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", server.port())).build())) {
            FlightInfo info = client.execute(HEAVY);
            long start = System.nanoTime();
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket(),
                        CallOptions.timeout(300, TimeUnit.MILLISECONDS))) {
                    while (stream.next()) {
                        // drain
                    }
                }
            });
            assertEquals(CallStatus.TIMED_OUT.code(), e.status().code());
            assertTrue(awaitIdle(1), "the query still runs " + (System.nanoTime() - start) / 1e9
                    + " s after the client's deadline of 0.3 s");
        }
    }

    @Test
    void aClientsDeadlineStopsItsDataStatementAndKeepsNothing() throws Exception {
        db.query("CREATE TABLE pairs (a BIGINT, b BIGINT)");
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", server.port())).build())) {
            // some 36 million rows, seconds of work, written batch by batch
            String insert = "INSERT INTO pairs SELECT a.l_orderkey, b.l_orderkey FROM lineitem a JOIN lineitem b "
                    + "ON a.l_suppkey = b.l_suppkey";
            long start = System.nanoTime();
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class,
                    () -> client.executeUpdate(insert, CallOptions.timeout(1500, TimeUnit.MILLISECONDS)));
            assertEquals(CallStatus.TIMED_OUT.code(), e.status().code());
            // it stops at its query's next check or its next batch of rows (seconds here: one probe
            // morsel of this join yields millions of rows); before, it ran on and kept them all
            assertTrue(awaitIdle(10), "the INSERT still runs " + (System.nanoTime() - start) / 1e9
                    + " s after the client's deadline of 1.5 s");
            assertEquals("timed_out", server.queries().recent().get(0).status());
        }
        assertEquals(List.of(List.of(0L)), db.query("SELECT count(*) FROM pairs").rows(), "nothing was kept");
        db.query("DROP TABLE pairs");
    }

    @Test
    void aClientProcessThatDiesStopsItsQuery() throws Exception {
        Process client = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), HeavyQueryClient.class.getName(),
                String.valueOf(server.port()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long start = System.nanoTime();
            while (server.runningQueries() == 0 && client.isAlive() && System.nanoTime() - start < 60_000_000_000L) {
                Thread.sleep(10);
            }
            assertEquals(1, server.runningQueries(), "the client's query did not start");
        } finally {
            client.destroyForcibly();
            client.waitFor();
        }
        long killed = System.nanoTime();
        assertTrue(awaitIdle(1), "the query still runs " + (System.nanoTime() - killed) / 1e9
                + " s after its client was killed");
    }

    /** Waits up to {@code seconds} for no query to run; whether none does. */
    private static boolean awaitIdle(double seconds) throws InterruptedException {
        long start = System.nanoTime();
        while (server.runningQueries() > 0 && System.nanoTime() - start < seconds * 1e9) {
            Thread.sleep(10);
        }
        return server.runningQueries() == 0;
    }

    private static List<Long> drain(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            List<Long> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
            return out;
        }
    }

    /** The client process {@link #aClientProcessThatDiesStopsItsQuery} kills: it runs {@link #HEAVY} and waits. */
    public static final class HeavyQueryClient {
        public static void main(String[] args) throws SQLException {
            try (Connection c = DriverManager.getConnection(url(Integer.parseInt(args[0])));
                 Statement st = c.createStatement(); ResultSet rs = st.executeQuery(HEAVY)) {
                rs.next();
            }
        }
    }
}
