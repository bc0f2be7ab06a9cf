package dev.starling.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.server.config.ServerConfig;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.storage.gen.TpchGenerator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/starling-sql} against a server in this process: it prints results and errors and
 * nothing else, goes on past a failed statement and says so in its exit status, keeps its session
 * (SET) across statements, and logs in over TLS.
 */
class StarlingSqlTest {
    private static final Path CERT = Path.of("src/test/resources/tls/server.crt");
    private static final Path KEY = Path.of("src/test/resources/tls/server.key");

    /** What one run printed, and its exit status. */
    private record Run(int status, String out, String err) { }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = StarlingSql.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void printsResultsAndErrorsOnly() throws Exception {
        try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0)) {
            TpchGenerator.generate(db.catalog(), 0.001, "");
            String port = String.valueOf(server.port());
            Run ok = run("--port", port, "-e", "SELECT n_name, n_regionkey FROM nation WHERE n_nationkey < 2 ORDER BY 1;"
                    + " CREATE TABLE t (a INT, d DATE, x DECIMAL(5,2)); INSERT INTO t VALUES (1, DATE '1998-09-02', 1.50), (NULL, NULL, NULL);"
                    + " SELECT * FROM t ORDER BY a");
            assertEquals(0, ok.status(), ok.err());
            assertEquals("", ok.err());
            assertEquals(List.of(
                    "n_name    | n_regionkey", "----------+------------", "ALGERIA   | 0", "ARGENTINA | 1",
                    "(0 rows written)", "(2 rows written)",
                    "a    | d          | x", "-----+------------+-----", "1    | 1998-09-02 | 1.50", "null | null       | null"),
                    ok.out().lines().map(String::stripTrailing).toList());

            Run failed = run("--port", port, "-e", "SELECT * FROM nope; SELECT count(*) AS n FROM nation");
            assertEquals(1, failed.status());
            assertEquals("ERROR: line 1, column 15: Object 'nope' not found" + System.lineSeparator(), failed.err());
            assertEquals(List.of("n", "--", "25"), failed.out().lines().map(String::stripTrailing).toList());

            Run commented = run("--port", port, "-e", "SELECT count(*) AS n FROM region -- the regions");
            assertEquals(List.of("n", "-", "5"), commented.out().lines().map(String::stripTrailing).toList());
            Run unclosed = run("--port", port, "-e", "SELECT 'open FROM region");
            assertEquals(1, unclosed.status());
            assertEquals("ERROR: the text ends inside a quote or a /* comment; nothing was run" + System.lineSeparator(),
                    unclosed.err());

            Run session = run("--port", port, "-e", "SET query_timeout = '1ms'; SELECT count(*) FROM lineitem a, lineitem b");
            assertEquals(1, session.status(), "the session's own timeout holds for its next statement: " + session.out());
            assertFalse(session.err().contains("Exception"), session.err());
        }
    }

    @Test
    void saysWhenTheServerCannotBeReached() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Run run = run("--port", String.valueOf(port), "-e", "SELECT 1");
        assertEquals(2, run.status());
        assertTrue(run.err().startsWith("ERROR: cannot reach the server at 127.0.0.1:" + port), run.err());
        assertEquals("", run.out());
    }

    @Test
    void logsInOverTls() throws Exception {
        ServerConfig config = new ServerConfig(new ServerConfig.Listen("localhost", 0), null, null,
                new ServerConfig.Auth("password", List.of(
                        new ServerConfig.User("analyst", FlightSqlServer.hashPassword("s3cret".toCharArray()))), 5),
                new ServerConfig.Tls(CERT, KEY), null, null, null, null, null, null);
        try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, config)) {
            TpchGenerator.generate(db.catalog(), 0.001, "");
            String port = String.valueOf(server.port());
            Run ok = run("--host", "localhost", "--port", port, "--tls", "--tls-root-certs", CERT.toString(),
                    "--user", "analyst", "--password", "s3cret", "-e", "SELECT count(*) AS n FROM region");
            assertEquals(0, ok.status(), ok.err());
            assertEquals(List.of("n", "-", "5"), ok.out().lines().map(String::stripTrailing).toList());
            Run wrong = run("--host", "localhost", "--port", port, "--tls", "--tls-root-certs", CERT.toString(),
                    "--user", "analyst", "--password", "nope", "-e", "SELECT 1");
            assertEquals(1, wrong.status(), "a refused login is a failure, not an unreachable server");
            assertTrue(wrong.err().startsWith("ERROR: "), wrong.err());
            assertFalse(wrong.err().contains("Exception"), wrong.err());
        }
    }
}
