package dev.starling.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.starling.engine.Starling;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.server.metrics.ServerMetrics;
import dev.starling.storage.gen.TpchGenerator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpEndpointTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    static HttpResponse<String> get(int port, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlyItsPagesAndOnlyGetAndHeadAndTheStatusPageAsksForPasswordsWhereTheServerDoes() throws Exception {
        try (HttpEndpoint http = HttpEndpoint.start("127.0.0.1", 0);
             Starling db = Starling.inMemory();
             FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             ServerMetrics metrics = new ServerMetrics(db, server.queries(), server::bufferedBytes)) {
            http.ready(metrics, server.queries(), Map::of, (user, password) -> user.equals("ops") && password.equals("s3cret"));
            assertEquals(404, get(http.port(), "/healthz").statusCode());
            HttpResponse<String> post = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                    + "/health")).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
            HttpResponse<String> head = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                    + "/health")).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, head.statusCode());
            assertEquals(200, get(http.port(), "/metrics").statusCode());
            HttpResponse<String> anonymous = get(http.port(), "/queries");
            assertEquals(401, anonymous.statusCode());
            assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
            HttpResponse<String> wrong = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                    + "/queries")).header("Authorization", basic("ops", "guess")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, wrong.statusCode());
            HttpResponse<String> ops = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                    + "/queries")).header("Authorization", basic("ops", "s3cret")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ops.statusCode());
            assertEquals(0, new ObjectMapper().readTree(ops.body()).get("recent").size(), ops.body());
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void healthSaysStartingUntilReadyThenMetricsAndQueriesAnswer() throws Exception {
        try (HttpEndpoint http = HttpEndpoint.start("127.0.0.1", 0);
             Starling db = Starling.inMemory()) {
            HttpResponse<String> starting = get(http.port(), "/health");
            assertEquals(503, starting.statusCode());
            assertEquals("{\"status\":\"starting\"}", starting.body());
            assertEquals(503, get(http.port(), "/metrics").statusCode());
            TpchGenerator.generate(db.catalog(), 0.001, "");
            try (FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
                 ServerMetrics metrics = new ServerMetrics(db, server.queries(), server::bufferedBytes)) {
                http.ready(metrics, server.queries(), () -> Map.of("gpu", "none"), null);
                HttpResponse<String> ready = get(http.port(), "/health");
                assertEquals(200, ready.statusCode());
                assertEquals("{\"status\":\"ready\",\"gpu\":\"none\"}", ready.body());
                try (Connection c = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port()
                        + "/?useEncryption=false"); Statement st = c.createStatement()) {
                    try (ResultSet rs = st.executeQuery("SELECT n_name FROM nation")) {
                        while (rs.next()) {
                            rs.getString(1);
                        }
                    }
                    assertThrows(SQLException.class, () -> {
                        try (ResultSet rs = st.executeQuery("SELECT 1 / 0 FROM nation")) {
                            rs.next();
                        }
                    });
                    assertThrows(SQLException.class, () -> st.executeQuery("SELECT nope FROM nation"));
                    assertEquals(1, st.executeUpdate("INSERT INTO region VALUES (5, 'MOON', 'no comment')"));
                }
                String text = get(http.port(), "/metrics").body();
                PrometheusText.check(text);
                assertTrue(text.contains("starling_queries_total{backend=\"cpu\",status=\"ok\"} 1.0\n"), text);
                // one failed while it ran, one while it was planned
                assertTrue(text.contains("starling_queries_total{backend=\"cpu\",status=\"failed\"} 1.0\n"), text);
                assertTrue(text.contains("starling_queries_total{backend=\"none\",status=\"failed\"} 1.0\n"), text);
                assertTrue(text.contains("starling_queries_total{backend=\"none\",status=\"ok\"} 1.0\n"), text);
                assertTrue(text.contains("starling_result_rows_total 25.0\n"), text);
                assertTrue(text.contains("starling_query_duration_seconds_bucket{backend=\"cpu\",status=\"ok\",le=\"+Inf\"} 1\n"), text);
                assertTrue(text.contains("starling_queries_running 0.0\n"), text);
                assertTrue(text.contains("starling_queries_waiting 0.0\n"), text);
                assertTrue(text.contains("starling_tables 8.0\n"), text);
                assertTrue(text.contains("jvm_memory_used_bytes{"), text);
                assertTrue(text.contains("starling_gpu_available 0.0\n"), text);

                JsonNode queries = new ObjectMapper().readTree(get(http.port(), "/queries").body());
                assertEquals(0, queries.get("running").size());
                JsonNode recent = queries.get("recent");
                assertEquals(4, recent.size());
                JsonNode insert = recent.get(0);
                assertEquals("INSERT INTO region VALUES (5, 'MOON', 'no comment')", insert.get("sql").asText());
                assertEquals(1, insert.get("rows_written").asLong());
                assertTrue(text.contains("starling_rows_written_total 1.0\n"), text);
                JsonNode badName = recent.get(1);
                assertEquals("failed", badName.get("status").asText());
                assertTrue(badName.get("error").asText().contains("nope"), badName.toString());
                JsonNode names = recent.get(3);
                assertEquals("SELECT n_name FROM nation", names.get("sql").asText());
                assertEquals("ok", names.get("status").asText());
                assertEquals("cpu", names.get("backend").asText());
                assertEquals("anonymous", names.get("user").asText());
                assertEquals(25, names.get("rows").asLong());
                assertTrue(names.get("bytes").asLong() > 0, names.toString());
                assertTrue(names.get("plan_ms").asDouble() > 0, names.toString());
                assertEquals(8, names.get("plan_hash").asText().length(), names.toString());
                assertEquals(0, server.bufferedBytes());
            }
        }
    }
}
