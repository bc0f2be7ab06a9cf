package dev.starling.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as its users start it, in processes of its own: two on different {@code --port}s run
 * side by side (each with its HTTP port beside its Flight SQL port), say ready on {@code /health}
 * once their demo data is in, answer through the JDBC driver and show it in their metrics; one on
 * a taken port (HTTP or Flight SQL) stops at once and names the port and its key.
 */
class ServerProcessTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final List<Process> started = new ArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : started) {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void twoServersSideBySideAndATakenPortIsNamed() throws Exception {
        int first = freePortPair();
        int second = freePortPair();
        Process a = start("a", "--port", String.valueOf(first), "--demo-sf", "0.001");
        Process b = start("b", "--port", String.valueOf(second), "--no-demo");
        awaitReady(a, "a", first + 1);
        awaitReady(b, "b", second + 1);
        try (Connection c = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + first + "/?useEncryption=false");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM nation")) {
            assertTrue(rs.next());
            assertEquals(25, rs.getLong(1));
        }
        try (Connection c = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + second + "/?useEncryption=false");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM (VALUES (1), (2)) t(x)")) {
            assertTrue(rs.next());
            assertEquals(2, rs.getLong(1));
        }
        String metrics = get(first + 1, "/metrics").body();
        assertTrue(metrics.contains("starling_queries_total{backend=\"cpu\",status=\"ok\"} 1.0\n"), metrics);
        assertTrue(get(second + 1, "/metrics").body().contains("starling_tables 0.0\n"));

        Process taken = start("c", "--port", String.valueOf(freePortPair()), "--http-port", String.valueOf(first + 1),
                "--no-demo");
        assertTrue(taken.waitFor(60, TimeUnit.SECONDS), "a server on a taken port keeps running");
        assertEquals(4, taken.exitValue());
        String err = Files.readString(dir.resolve("c.err"));
        assertTrue(err.contains("starling: port " + (first + 1) + " (http.port) is in use by another process"), err);
        Process flightTaken = start("d", "--port", String.valueOf(first), "--http-port", String.valueOf(freePortPair()),
                "--no-demo");
        assertTrue(flightTaken.waitFor(60, TimeUnit.SECONDS), "a server on a taken port keeps running");
        assertEquals(4, flightTaken.exitValue(), () -> log("d"));
        assertTrue(log("d").contains("starling: port " + first + " (listen.port) is in use by another process"), log("d"));
    }

    private Process start(String name, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "--data-dir", dir.resolve(name).toString(), "--no-console"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile()).start();
        started.add(p);
        return p;
    }

    private void awaitReady(Process p, String name, int httpPort) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), () -> "server " + name + " stopped: " + log(name));
            try {
                HttpResponse<String> health = get(httpPort, "/health");
                if (health.statusCode() == 200) {
                    assertTrue(health.body().startsWith("{\"status\":\"ready\""), health.body());
                    return;
                }
                assertEquals(503, health.statusCode());
            } catch (IOException notListeningYet) {
                // the JVM is still starting
            }
            Thread.sleep(100);
        }
        throw new AssertionError("server " + name + " not ready after 180 s: " + log(name));
    }

    private String log(String name) {
        try {
            return Files.readString(dir.resolve(name + ".out")) + Files.readString(dir.resolve(name + ".err"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A free port whose next port is free too (a server's Flight SQL and HTTP ports). */
    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket s = new ServerSocket(0)) {
                int port = s.getLocalPort();
                if (port < 65535) {
                    try (ServerSocket next = new ServerSocket(port + 1)) {
                        return port;
                    } catch (IOException taken) {
                        // try another
                    }
                }
            }
        }
        throw new IOException("no two free ports in a row");
    }
}
