package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * token is UNAUTHENTICATED.
 */
class FlightSecurityTest {
    private static final Path CERT = Path.of("src/test/resources/tls/server.crt");
    private static final Path KEY = Path.of("src/test/resources/tls/server.key");
    private static Starling db;
    private static FlightSqlServer server;

    @BeforeAll
    static void start() throws Exception {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.001, "");
        ServerConfig config = new ServerConfig(new ServerConfig.Listen("localhost", 0), null, null,
                new ServerConfig.Auth("password", List.of(new ServerConfig.User("analyst",
                        FlightSqlServer.hashPassword("s3cret".toCharArray()))), 5),
                new ServerConfig.Tls(CERT, KEY), null, null, null, null);
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
}
