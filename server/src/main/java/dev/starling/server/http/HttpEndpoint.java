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
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * The server's HTTP port, for operators and their tools: {@code /health} (503 while the server
 * starts, 200 once its catalog is open and Flight SQL serves), {@code /metrics} (Prometheus text)
 * and {@code /queries} (the status page: running and recent queries, as JSON). It starts before
 * anything else, so a container's health check sees a server that is starting rather than none;
 * the other pages answer once the server is {@link #ready}. Health and metrics are counts; the
 * status page shows every user's statements, so where the server asks for passwords it asks for
 * an administrator's (HTTP Basic).
 */
public final class HttpEndpoint implements AutoCloseable {
    private final HttpServer http;
    private final ExecutorService threads;
    private volatile Ready ready;

    /**
     * A ready server's pages: its metrics, its queries, what {@code /health} says of it, and the
     * check of a user name and password for the status page (null: none asked for).
     */
    private record Ready(ServerMetrics metrics, QueryTracker queries, Supplier<Map<String, Object>> health,
                         BiPredicate<String, String> credentials) { }

    private HttpEndpoint(HttpServer http, ExecutorService threads) {
        this.http = http;
        this.threads = threads;
    }

    /** Listens on {@code bind}:{@code port} (0: any free port); {@code /health} says starting until {@link #ready}. */
    public static HttpEndpoint start(String bind, int port) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(bind, port), 0);
        // a scrape or a status page never waits behind another one for long, and never on a query
        ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "http");
            t.setDaemon(true);
            return t;
        });
        http.setExecutor(threads);
        HttpEndpoint endpoint = new HttpEndpoint(http, threads);
        http.createContext("/", endpoint::answer);
        http.start();
        return endpoint;
    }

    /**
     * The server is up: {@code /health} answers ready with what {@code health} says at the time,
     * the other pages answer; {@code credentials} checks the status page's user and password
     * (null where the server asks for none).
     */
    public void ready(ServerMetrics metrics, QueryTracker queries, Supplier<Map<String, Object>> health,
                      BiPredicate<String, String> credentials) {
        this.ready = new Ready(metrics, queries, health, credentials);
    }

    public int port() {
        return http.getAddress().getPort();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().add("Allow", "GET, HEAD");
            send(exchange, 405, "text/plain; charset=utf-8", "only GET and HEAD\n");
            return;
        }
        Ready r = ready;
        switch (exchange.getRequestURI().getPath()) {
            case "/health" -> {
                if (r == null) {
                    send(exchange, 503, "application/json", QueryLog.json(Map.of("status", "starting")));
                } else {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("status", "ready");
                    body.putAll(r.health().get());
                    send(exchange, 200, "application/json", QueryLog.json(body));
                }
            }
            case "/metrics" -> {
                if (r == null) {
                    send(exchange, 503, "text/plain; charset=utf-8", "starting\n");
                } else {
                    send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", r.metrics().scrape());
                }
            }
            case "/queries" -> {
                if (r == null) {
                    send(exchange, 503, "application/json", QueryLog.json(Map.of("status", "starting")));
                } else if (r.credentials() != null && !authorized(exchange, r.credentials())) {
                    exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"starling\", charset=\"UTF-8\"");
                    send(exchange, 401, "text/plain; charset=utf-8", "an administrator's user name and password are needed\n");
                } else {
                    send(exchange, 200, "application/json", QueryLog.json(Map.of("running", r.queries().running(),
                            "recent", r.queries().recent())));
                }
            }
            default -> send(exchange, 404, "text/plain; charset=utf-8", "not found: /health, /metrics, /queries\n");
        }
    }

    /** Whether the request carries Basic credentials that {@code credentials} accepts. */
    private static boolean authorized(HttpExchange exchange, BiPredicate<String, String> credentials) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        int colon = pair.indexOf(':');
        return colon > 0 && credentials.test(pair.substring(0, colon), pair.substring(colon + 1));
    }

    private static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        http.stop(0);
        threads.shutdownNow();
    }
}
