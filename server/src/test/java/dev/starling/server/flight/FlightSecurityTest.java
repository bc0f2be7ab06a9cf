package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.server.config.ServerConfig;
import dev.starling.storage.gen.TpchGenerator;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server with passwords and TLS (a test certificate for localhost): the right password over a
 * verified TLS connection answers, a wrong one or none is refused, and a call without the bearer
 * token is UNAUTHENTICATED; a reader queries and sets its session's settings (its query_timeout
 * and memory_limit within the server's) but changes nothing, an administrator changes tables and data, LOAD reads and
 * COPY writes only under the load directories and GENERATE stays within the largest scale factor.
 */
class FlightSecurityTest {
    private static final Path CERT = Path.of("src/test/resources/tls/server.crt");
    /** The server's key in PKCS#1 (BEGIN RSA PRIVATE KEY), which the TLS stack is handed as PKCS#8. */
    private static final Path KEY = Path.of("src/test/resources/tls/server-pkcs1.key");
    private static Starling db;
    private static FlightSqlServer server;
    private static Path imports;

    @BeforeAll
    static void start() throws Exception {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.001, "");
        imports = java.nio.file.Files.createTempDirectory("imports");
        java.nio.file.Files.writeString(imports.resolve("regions.tbl"), "7|ATLANTIS|sunk|\n");
        ServerConfig config = new ServerConfig(new ServerConfig.Listen("localhost", 0), null, null,
                new ServerConfig.Auth("password", List.of(
                        new ServerConfig.User("analyst", FlightSqlServer.hashPassword("s3cret".toCharArray())),
                        new ServerConfig.User("ops", FlightSqlServer.hashPassword("r00t".toCharArray()), "admin")), 5),
                new ServerConfig.Tls(CERT, KEY), null, null, null, new ServerConfig.Query("30s", null, "1GB"),
                new ServerConfig.Load(List.of(imports)),
                new ServerConfig.Generate(0.002));
        server = FlightSqlServer.start(db, config);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        db.close();
    }

    private static Connection connect(String user, String password) throws SQLException {
        String url = "jdbc:arrow-flight-sql://localhost:" + server.port() + "/?useEncryption=true&tlsRootCerts="
                + CERT.toAbsolutePath() + (user == null ? "" : "&user=" + user + "&password=" + password);
        return DriverManager.getConnection(url);
    }

    @Test
    void theRightPasswordOverTlsAnswers() throws Exception {
        try (Connection c = connect("analyst", "s3cret"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM nation")) {
            assertTrue(rs.next());
            assertEquals(25, rs.getLong(1));
        }
    }

    @Test
    void aWrongPasswordOrNoneIsRefused() {
        SQLException wrong = assertThrows(SQLException.class, () -> connect("analyst", "guess").close());
        assertTrue(wrong.getMessage().contains("wrong user name or password")
                || String.valueOf(wrong.getCause()).contains("UNAUTHENTICATED"), wrong.toString());
        SQLException unknown = assertThrows(SQLException.class, () -> connect("mallory", "s3cret").close());
        assertTrue(unknown.getMessage().contains("wrong user name or password")
                || String.valueOf(unknown.getCause()).contains("UNAUTHENTICATED"), unknown.toString());
        assertThrows(SQLException.class, () -> {
            try (Connection c = connect(null, null); Statement st = c.createStatement()) {
                st.executeQuery("SELECT 1").close();
            }
        });
    }

    @Test
    void aCallWithoutTheTokenIsUnauthenticated() throws Exception {
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcTls("localhost", server.port())).trustedCertificates(
                     java.nio.file.Files.newInputStream(CERT)).build())) {
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> client.getTables(null, null, null, null, false));
            assertEquals(CallStatus.UNAUTHENTICATED.code(), e.status().code());
        }
    }

    @Test
    void plainTextIsNotServed() {
        assertThrows(SQLException.class, () -> {
            String url = "jdbc:arrow-flight-sql://localhost:" + server.port() + "/?useEncryption=false&user=analyst&password=s3cret";
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                st.executeQuery("SELECT 1").close();
            }
        });
    }

    @Test
    void aReaderQueriesAndChangesNothing() throws Exception {
        try (Connection c = connect("analyst", "s3cret"); Statement st = c.createStatement()) {
            st.executeUpdate("SET backend = 'cpu'");
            // within the server's query.timeout (30 s), not past it nor without a limit
            st.executeUpdate("SET query_timeout = '10s'");
            for (String longer : List.of("SET query_timeout = '2min'", "SET query_timeout = 0")) {
                SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(longer), longer);
                assertTrue(e.getMessage().contains("user analyst (role reader) may not SET query_timeout to "
                        + (longer.endsWith("0") ? "no limit" : "2min") + ", past the server's query.timeout of 30 s: "
                        + "only an administrator may"), e.getMessage());
            }
            st.executeUpdate("SET memory_limit = '100MB'");
            for (String more : List.of("SET memory_limit = '2GB'", "SET memory_limit = 0")) {
                SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(more), more);
                assertTrue(e.getMessage().contains("user analyst (role reader) may not SET memory_limit to "
                        + (more.endsWith("0") ? "no limit" : "2 GB") + ", past the server's query.memory_limit of 1 GB: "
                        + "only an administrator may"), e.getMessage());
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM region")) {
                assertTrue(rs.next());
                assertEquals(5, rs.getLong(1));
            }
            for (String write : List.of("INSERT INTO region VALUES (9, 'X', 'y')", "CREATE TABLE t (a INTEGER)",
                    "DROP TABLE region", "CREATE VIEW v AS SELECT 1", "GENERATE tpch SCALE 0.001 SCHEMA s",
                    "LOAD INTO region FROM 'regions.tbl'", "ALTER TABLE region SET (gpu_resident = true)",
                    "COPY region TO 'regions.csv'")) {
                String verb = write.startsWith("ALTER") ? "ALTER TABLE" : write.split(" ")[0]
                        + (write.startsWith("CREATE") || write.startsWith("DROP") ? " " + write.split(" ")[1] : "");
                SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(write), write);
                assertTrue(e.getMessage().contains("user analyst (role reader) may not run " + verb
                        + ": only an administrator may"), e.getMessage());
            }
        }
        assertEquals(5, db.catalog().require("region").rowCount());
        assertFalse(java.nio.file.Files.exists(imports.resolve("regions.csv")), "the reader's COPY wrote nothing");
        // the HTTP status page shows every user's statements: administrators only
        assertTrue(server.admits("ops", "r00t"));
        assertFalse(server.admits("analyst", "s3cret"));
    }

    @Test
    void anAdministratorLoadsOnlyFromTheLoadDirectoriesAndGeneratesWithinTheLimit() throws Exception {
        try (Connection c = connect("ops", "r00t"); Statement st = c.createStatement()) {
            st.executeUpdate("SET query_timeout = 0");
            st.executeUpdate("CREATE TABLE lands (r_regionkey INTEGER NOT NULL, r_name VARCHAR(25), r_comment VARCHAR(152))");
            assertEquals(1, st.executeUpdate("LOAD INTO lands FROM 'regions.tbl'"));
            assertEquals(1, st.executeUpdate("LOAD INTO lands FROM '" + imports.resolve("regions.tbl") + "'"));
            java.nio.file.Path outside = java.nio.file.Files.createTempFile("outside", ".tbl");
            java.nio.file.Path link = imports.resolve("link.tbl");
            java.nio.file.Files.createSymbolicLink(link, outside);
            for (String name : List.of(outside.toString(), "../" + outside.getFileName(), "link.tbl",
                    "/etc/passwd")) {
                SQLException e = assertThrows(SQLException.class,
                        () -> st.executeUpdate("LOAD INTO lands FROM '" + name + "' FORMAT TBL"), name);
                assertTrue(e.getMessage().contains("LOAD reads only files under " + imports), e.getMessage());
            }
            SQLException missing = assertThrows(SQLException.class, () -> st.executeUpdate("LOAD INTO lands FROM 'nope.tbl'"));
            assertTrue(missing.getMessage().contains("LOAD finds no file nope.tbl under " + imports), missing.getMessage());
            SQLException big = assertThrows(SQLException.class, () -> st.executeUpdate("GENERATE tpch SCALE 1 SCHEMA big"));
            assertTrue(big.getMessage().contains("GENERATE makes scale factors up to 0.002 here"), big.getMessage());
            assertTrue(st.executeUpdate("GENERATE ssb SCALE 0.001 SCHEMA small") > 0);
            // COPY writes under the load directories too, and LOAD reads it back
            assertEquals(2, st.executeUpdate("COPY (SELECT * FROM lands) TO 'lands.arrow'"));
            assertEquals(2, st.executeUpdate("LOAD INTO lands FROM 'lands.arrow'"));
            SQLException out = assertThrows(SQLException.class,
                    () -> st.executeUpdate("COPY lands TO '" + outside.resolveSibling("lands.csv") + "'"));
            assertTrue(out.getMessage().contains("COPY writes only files under " + imports), out.getMessage());
        }
        assertEquals(4, db.catalog().require("lands").rowCount());
    }
}
