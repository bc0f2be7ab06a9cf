package dev.starling.server.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.starling.server.metrics.ServerMetrics;
import dev.starling.server.queries.QueryLog;
import dev.starling.server.queries.QueryTracker;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The server's HTTP port, for operators and their tools: {@code /health} (503 while the server
 * starts, 200 once its catalog is open and Flight SQL serves), {@code /metrics} (Prometheus text)
 * and {@code /queries} (the status page: running and recent queries, as JSON). It starts before
 * anything else, so a container's health check sees a server that is starting rather than none;
 * the other pages answer once the server is {@link #ready}. Counts and statements only, no data;
 * it listens on the loopback address unless configured otherwise.
 */
public final class HttpEndpoint implements AutoCloseable {
    private final HttpServer http;
    private volatile Ready ready;

    private record Ready(ServerMetrics metrics, QueryTracker queries, Map<String, Object> health) { }

    private HttpEndpoint(HttpServer http) {
        this.http = http;
    }

    /** Listens on {@code bind}:{@code port} (0: any free port); {@code /health} says starting until {@link #ready}. */
    public static HttpEndpoint start(String bind, int port) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(bind, port), 0);
        // a scrape or a status page never waits behind another one for long, and never on a query
        http.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "http");
            t.setDaemon(true);
            return t;
        }));
        HttpEndpoint endpoint = new HttpEndpoint(http);
        http.createContext("/health", endpoint::health);
        http.createContext("/metrics", endpoint::metrics);
        http.createContext("/queries", endpoint::queries);
        http.start();
        return endpoint;
    }

    /** The server is up: {@code /health} answers ready with {@code health}'s facts, the other pages answer. */
    public void ready(ServerMetrics metrics, QueryTracker queries, Map<String, Object> health) {
        this.ready = new Ready(metrics, queries, health);
    }

    public int port() {
        return http.getAddress().getPort();
    }

    private void health(HttpExchange exchange) throws IOException {
        Ready r = ready;
        if (r == null) {
            send(exchange, 503, "application/json", QueryLog.json(Map.of("status", "starting")));
        } else {
            java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
            body.put("status", "ready");
            body.putAll(r.health());
            send(exchange, 200, "application/json", QueryLog.json(body));
        }
    }

    private void metrics(HttpExchange exchange) throws IOException {
        Ready r = ready;
        if (r == null) {
            send(exchange, 503, "text/plain; charset=utf-8", "starting\n");
        } else {
            send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", r.metrics().scrape());
        }
    }

    private void queries(HttpExchange exchange) throws IOException {
        Ready r = ready;
        if (r == null) {
            send(exchange, 503, "application/json", QueryLog.json(Map.of("status", "starting")));
        } else {
            send(exchange, 200, "application/json", QueryLog.json(Map.of("running", r.queries().running(),
                    "recent", r.queries().recent())));
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        http.stop(0);
        ((java.util.concurrent.ExecutorService) http.getExecutor()).shutdownNow();
    }
}
