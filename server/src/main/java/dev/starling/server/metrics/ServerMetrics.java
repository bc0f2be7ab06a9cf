package dev.starling.server.metrics;

import dev.starling.engine.Starling;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.server.queries.QueryRecord;
import dev.starling.server.queries.QueryTracker;
import dev.starling.storage.Catalog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The server's metrics in a Micrometer registry, scraped as Prometheus text: queries by status and
 * backend with a latency histogram, rows and bytes sent, result buffers held, tables and rows,
 * with a GPU its memory, column cache, pipelines, bytes copied over PCIe and busy time (whose rate
 * is its utilization by queries), and the JVM's memory, collections, threads, classes, CPU and
 * uptime. Counts only, never data.
 */
public final class ServerMetrics implements Consumer<QueryRecord>, AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    /** The latency histogram's buckets: from an interactive query's milliseconds to a report's minute. */
    private static final Duration[] LATENCY_BUCKETS = java.util.stream.LongStream.of(1, 2, 5, 10, 20, 50, 100, 200,
            500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000).mapToObj(Duration::ofMillis).toArray(Duration[]::new);

    /** The meters of the queries that ended with one status on one backend. */
    private record Outcome(Counter queries, Timer duration) { }

    private final Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
    private final Counter rows = Counter.builder("starling.result.rows").description("Rows sent to clients.")
            .register(registry);
    private final Counter sent = Counter.builder("starling.result.sent").baseUnit("bytes")
            .description("Bytes of Arrow buffers sent to clients.").register(registry);
    private final Counter written = Counter.builder("starling.rows.written").description("Rows data statements wrote.")
            .register(registry);

    public ServerMetrics(Starling db, QueryTracker queries, LongSupplier resultBufferBytes) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        Gauge.builder("starling.queries.running", queries, QueryTracker::runningCount)
                .description("Queries running now.").register(registry);
        Gauge.builder("starling.queries.waiting", db, Starling::queriesWaiting)
                .description("Queries waiting for their turn to run (query.max_running, memory.query_state_bytes).")
                .register(registry);
        Gauge.builder("starling.result.buffer", resultBufferBytes::getAsLong).baseUnit("bytes")
                .description("Off-heap result buffers held now, all sessions together.").register(registry);
        Catalog catalog = db.catalog();
        Gauge.builder("starling.tables", catalog, c -> c.tables().size())
                .description("Tables in the catalog.").register(registry);
        Gauge.builder("starling.table.rows", catalog, c -> c.tables().stream().mapToLong(t -> t.rowCount()).sum())
                .description("Rows in all tables.").register(registry);
        GpuBackend gpu = db.gpu().orElse(null);
        Gauge.builder("starling.gpu.available", () -> gpu == null ? 0 : 1)
                .description("Whether a GPU backend is in use.").register(registry);
        if (gpu != null) {
            gpuMeters(gpu);
        }
        queries.onEnd(this);
    }

    private void gpuMeters(GpuBackend gpu) {
        DeviceMemory memory = gpu.device().memory();
        Gauge.builder("starling.gpu.memory.used", memory, DeviceMemory::used).baseUnit("bytes")
                .description("Device memory of open buffers.").register(registry);
        Gauge.builder("starling.gpu.memory.kept", memory, DeviceMemory::kept).baseUnit("bytes")
                .description("Device memory freed by queries and kept for the next ones.").register(registry);
        Gauge.builder("starling.gpu.memory.budget", memory, DeviceMemory::budget).baseUnit("bytes")
                .description("Device memory Starling may use.").register(registry);
        Gauge.builder("starling.gpu.column.cache", gpu, g -> g.columnCache().residentBytes()).baseUnit("bytes")
                .description("Columns resident on the device.").register(registry);
        FunctionCounter.builder("starling.gpu.pipelines", gpu, GpuBackend::runs)
                .description("Pipelines the GPU answered.").register(registry);
        FunctionCounter.builder("starling.gpu.busy", gpu, GpuBackend::busySeconds).baseUnit("seconds")
                .description("Time queries held the GPU; its rate is the GPU's utilization by queries.").register(registry);
        FunctionCounter.builder("starling.gpu.copied", memory, DeviceMemory::copiedToDevice).baseUnit("bytes")
                .tag("direction", "to_device").description("Bytes copied over PCIe.").register(registry);
        FunctionCounter.builder("starling.gpu.copied", memory, DeviceMemory::copiedToHost).baseUnit("bytes")
                .tag("direction", "to_host").description("Bytes copied over PCIe.").register(registry);
    }

    /** Counts a query that ended. */
    @Override
    public void accept(QueryRecord q) {
        Outcome o = outcomes.computeIfAbsent(q.status() + ' ' + q.backend(), k -> new Outcome(
                Counter.builder("starling.queries").description("Queries that ended, by status and where they ran.")
                        .tag("status", q.status()).tag("backend", q.backend()).register(registry),
                Timer.builder("starling.query.duration").description("Time of a query: planning, then start to end.")
                        .tag("status", q.status()).tag("backend", q.backend())
                        .serviceLevelObjectives(LATENCY_BUCKETS).register(registry)));
        o.queries().increment();
        o.duration().record(Duration.ofNanos((long) (q.totalMs() * 1e6)));
        rows.increment(q.rows());
        sent.increment(q.bytes());
        written.increment(q.rowsWritten());
    }

    /** Every metric in Prometheus' text format. */
    public String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
