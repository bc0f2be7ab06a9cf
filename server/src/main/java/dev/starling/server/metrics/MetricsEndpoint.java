package dev.starling.server.metrics;

import com.sun.net.httpserver.HttpServer;
import dev.starling.engine.Starling;
import dev.starling.gpu.GpuBackend;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * {@code GET /metrics} in Prometheus' text format: queries running and finished (by outcome),
 * their time and rows, the result buffers held, tables and rows, and, with a GPU, its memory, its
 * column cache and the pipelines it ran. Counts only, no data, so it needs no credentials; it
 * listens on the loopback address unless configured otherwise.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final HttpServer http;

    private MetricsEndpoint(HttpServer http) {
        this.http = http;
    }

    public static MetricsEndpoint start(String bind, int port, Starling db, QueryMetrics queries,
                                        LongSupplier resultBufferBytes) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(bind, port), 0);
        http.createContext("/metrics", exchange -> {
            byte[] body = render(db, queries, resultBufferBytes.getAsLong()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        http.start();
        return new MetricsEndpoint(http);
    }

    public int port() {
        return http.getAddress().getPort();
    }

    static String render(Starling db, QueryMetrics q, long resultBufferBytes) {
        StringBuilder out = new StringBuilder();
        gauge(out, "starling_queries_running", "Queries whose results are streaming now.", q.running());
        out.append("# HELP starling_queries_total Queries finished, by outcome.\n# TYPE starling_queries_total counter\n");
        for (QueryMetrics.Outcome o : QueryMetrics.Outcome.values()) {
            out.append("starling_queries_total{outcome=\"").append(o.name().toLowerCase(Locale.ROOT)).append("\"} ")
                    .append(q.finished(o)).append('\n');
        }
        counter(out, "starling_query_seconds_total", "Wall time of finished queries.", q.seconds());
        counter(out, "starling_result_rows_total", "Rows sent to clients.", q.rows());
        gauge(out, "starling_result_buffer_bytes", "Off-heap result buffers held now.", resultBufferBytes);
        gauge(out, "starling_tables", "Tables in the catalog.", db.catalog().tables().size());
        gauge(out, "starling_table_rows", "Rows in all tables.",
                db.catalog().tables().stream().mapToLong(t -> t.rowCount()).sum());
        GpuBackend gpu = db.gpu().orElse(null);
        gauge(out, "starling_gpu_available", "Whether a GPU backend is in use.", gpu == null ? 0 : 1);
        if (gpu != null) {
            gauge(out, "starling_gpu_memory_used_bytes", "Device memory of open buffers.", gpu.device().memory().used());
            gauge(out, "starling_gpu_memory_kept_bytes", "Device memory freed by queries and kept for the next ones.",
                    gpu.device().memory().kept());
            gauge(out, "starling_gpu_memory_budget_bytes", "Device memory Starling may use.", gpu.device().memory().budget());
            gauge(out, "starling_gpu_column_cache_bytes", "Fact columns resident on the device.",
                    gpu.columnCache().residentBytes());
            counter(out, "starling_gpu_pipelines_total", "Pipelines the GPU answered.", gpu.runs());
        }
        return out.toString();
    }

    private static void gauge(StringBuilder out, String name, String help, double value) {
        metric(out, name, help, "gauge", value);
    }

    private static void counter(StringBuilder out, String name, String help, double value) {
        metric(out, name, help, "counter", value);
    }

    private static void metric(StringBuilder out, String name, String help, String type, double value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type).append('\n')
                .append(name).append(' ').append(value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value))
                .append('\n');
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
