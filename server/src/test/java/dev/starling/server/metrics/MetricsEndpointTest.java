package dev.starling.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.server.flight.FlightSqlServer;
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
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {

    @Test
    void countsQueriesByOutcome() throws Exception {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.001, "");
            try (FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
                 MetricsEndpoint metrics = MetricsEndpoint.start("127.0.0.1", 0, db, server.metrics(), server::bufferedBytes);
                 Connection c = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port()
                         + "/?useEncryption=false");
                 Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT n_name FROM nation")) {
                    while (rs.next()) {
                        rs.getString(1);
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT 1 / 0 FROM nation")) {
                    rs.next();
                } catch (SQLException expected) {
                    // a failed query, counted as such
                }
                String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + metrics.port() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(text.contains("starling_queries_total{outcome=\"ok\"} 1\n"), text);
                assertTrue(text.contains("starling_queries_total{outcome=\"failed\"} 1\n"), text);
                assertTrue(text.contains("starling_result_rows_total 25\n"), text);
                assertTrue(text.contains("starling_queries_running 0\n"), text);
                assertTrue(text.contains("starling_tables 8\n"), text);
                assertEquals(0, server.bufferedBytes());
            }
        }
    }
}
