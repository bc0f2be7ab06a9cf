package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.server.flight.FlightSqlServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Latency as clients meet it, through Flight SQL clients (each its own connection and session:
 * execute, then read every endpoint's Arrow batches) against a server in this process on SSB
 * data: {@code SELECT 1} (also through the Flight SQL JDBC driver); each SSB query alone; all of them round-robin from 1, 8 and 64 clients
 * at once (p50, p99, queries a second); and each SSB query while another session runs a heavy
 * report on the CPU workers without pause, against the same query alone.
 */
@Command(name = "starling-latency-bench", mixinStandardHelpOptions = true,
        description = "Measures query latency through Flight SQL clients, alone, concurrent and under a heavy query.")
public final class LatencyBenchMain implements Callable<Integer> {
    /**
     * The report the heavy session repeats on the CPU workers: each order line paired with the
     * dates whose weekday number is its discount, summed. Every morsel of lineorder is work for a
     * worker (about 24 million pairs), with no single-threaded phase worth the name; at SF 10 it
     * runs for minutes, so the session's time limit ends each run.
     */
    static final String HEAVY = "SELECT count(*), sum(lo_revenue - d_year) FROM lineorder JOIN dwdate "
            + "ON lo_discount = d_daynuminweek";
    private static final String HEAVY_LIMIT = "5s";

    @Option(names = "--sf", description = "SSB scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--runs", description = "Timed runs per query, after warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 20;

    @Option(names = "--clients", split = ",", description = "Concurrent clients of the mixed load (default: ${DEFAULT-VALUE}).")
    private List<Integer> clients = List.of(1, 8, 64);

    @Option(names = "--backend", description = "The measured sessions' backend: auto, gpu or cpu (default: ${DEFAULT-VALUE}).")
    private String backend = "auto";

    @Option(names = "--seconds", description = "Length of each mixed load (default: ${DEFAULT-VALUE}).")
    private double seconds = 10;

    @Option(names = "--warm-up", description = "Unmeasured runs of SELECT 1 before its timed ones, so that the "
            + "client's and the server's code is compiled as in a long-running process (default: ${DEFAULT-VALUE}).")
    private int warmUp = 2000;

    private static final int TRIVIAL_RUNS = 2000;

    /** What the heavy session did while the queries ran beside it, for the table's caption. */
    private String heavyNote = "";
    private BufferAllocator allocator;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LatencyBenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             BufferAllocator allocator = new RootAllocator()) {
            long start = System.nanoTime();
            Workload.SSB.generate(db.catalog(), scaleFactor);
            System.out.printf("SSB SF %s generated in %.1f s; %d cores; %s; Java %s%n", scaleFactor,
                    (System.nanoTime() - start) / 1e9, Runtime.getRuntime().availableProcessors(),
                    db.gpu().map(g -> g.device().describe()).orElse("no GPU"), Runtime.version());
            Location url = Location.forGrpcInsecure("127.0.0.1", server.port());
            this.allocator = allocator;
            Map<String, String> queries = Workload.SSB.queries(scaleFactor);
            try (FlightSqlClient c = connect(url)) {
                c.executeUpdate("SET backend = '" + backend + "'");
                System.out.printf("measured sessions: backend %s%n", backend);
                double[] trivial = times(c, "SELECT 1", TRIVIAL_RUNS, warmUp);
                System.out.printf("%nSELECT 1, one client: p50 %.2f ms, p99 %.2f ms (%d runs after %d)%n",
                        percentile(trivial, 50), percentile(trivial, 99), TRIVIAL_RUNS, warmUp);
                double[] jdbc = jdbcTimes(server.port(), "SELECT 1", TRIVIAL_RUNS, warmUp);
                System.out.printf("SELECT 1 through the Flight SQL JDBC driver: p50 %.2f ms, p99 %.2f ms (%d runs after %d)%n",
                        percentile(jdbc, 50), percentile(jdbc, 99), TRIVIAL_RUNS, warmUp);
                System.out.printf("%n| query | p50 ms alone | p99 ms alone | p50 ms beside the heavy query | p99 ms beside | p50 ratio |%n");
                System.out.printf("| --- | ---: | ---: | ---: | ---: | ---: |%n");
                Map<String, double[]> alone = new java.util.LinkedHashMap<>();
                for (var q : queries.entrySet()) {
                    alone.put(q.getKey(), times(c, q.getValue(), runs, 3));
                }
                Map<String, double[]> beside = besideHeavy(url, c, queries);
                for (String name : queries.keySet()) {
                    double[] a = alone.get(name);
                    double[] b = beside.get(name);
                    System.out.printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |%n", name, percentile(a, 50), percentile(a, 99),
                            percentile(b, 50), percentile(b, 99), percentile(b, 50) / percentile(a, 50));
                }
                System.out.printf("%s; geomean of p50: alone %.2f ms, beside the heavy query %.2f ms%n", heavyNote,
                        geomean(alone.values().stream().map(t -> percentile(t, 50)).toList()),
                        geomean(beside.values().stream().map(t -> percentile(t, 50)).toList()));
            }
            System.out.printf("%n| clients | queries | queries/s | p50 ms | p99 ms |%n| ---: | ---: | ---: | ---: | ---: |%n");
            for (int n : clients) {
                mixed(url, queries, n);
            }
        }
        return 0;
    }

    /** Each query's times in one session while another session runs {@link #HEAVY} on the CPU without pause. */
    private Map<String, double[]> besideHeavy(Location url, FlightSqlClient c, Map<String, String> queries)
            throws Exception {
        long start = System.nanoTime();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        AtomicBoolean stop = new AtomicBoolean();
        int[] heavyRuns = new int[1];
        Future<?> heavy = pool.submit(() -> {
            try (FlightSqlClient h = connect(url)) {
                h.executeUpdate("SET backend = 'cpu'");
                h.executeUpdate("SET query_timeout = '" + HEAVY_LIMIT + "'");
                while (!stop.get()) {
                    try {
                        drain(h, HEAVY);
                    } catch (FlightRuntimeException e) {
                        if (e.status().code() != CallStatus.TIMED_OUT.code()) {
                            throw e;
                        }
                    }
                    heavyRuns[0]++;
                }
            }
            return null;
        });
        try {
            Thread.sleep(1000);
            Map<String, double[]> out = new java.util.LinkedHashMap<>();
            for (var q : queries.entrySet()) {
                out.put(q.getKey(), times(c, q.getValue(), runs, 1));
            }
            heavyNote = String.format("the heavy query (%s, backend cpu, stopped by query_timeout %s) ran %d times "
                    + "in the %.1f s beside", HEAVY, HEAVY_LIMIT, heavyRuns[0] + 1, (System.nanoTime() - start) / 1e9);
            return out;
        } finally {
            stop.set(true);
            heavy.get();
            pool.shutdown();
        }
    }

    /** {@code n} clients, each through its own connection, run the queries round-robin from its own offset. */
    private void mixed(Location url, Map<String, String> queries, int n) throws Exception {
        List<String> sql = new ArrayList<>(queries.values());
        ExecutorService pool = Executors.newFixedThreadPool(n);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Future<List<Double>>> futures = new ArrayList<>();
        long start = System.nanoTime();
        for (int client = 0; client < n; client++) {
            int offset = client;
            futures.add(pool.submit(() -> {
                List<Double> ms = new ArrayList<>();
                try (FlightSqlClient c = connect(url)) {
                    c.executeUpdate("SET backend = '" + backend + "'");
                    for (int i = offset; System.nanoTime() < end; i++) {
                        long t = System.nanoTime();
                        drain(c, sql.get(i % sql.size()));
                        ms.add((System.nanoTime() - t) / 1e6);
                    }
                }
                return ms;
            }));
        }
        List<Double> all = new ArrayList<>();
        for (Future<List<Double>> f : futures) {
            all.addAll(f.get());
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        double[] ms = all.stream().mapToDouble(Double::doubleValue).toArray();
        System.out.printf("| %d | %d | %.0f | %.2f | %.2f |%n", n, ms.length, ms.length / elapsed, percentile(ms, 50),
                percentile(ms, 99));
    }

    /** A client of its own connection, whose session (its SET settings) the cookie carries. */
    private FlightSqlClient connect(Location url) {
        return new FlightSqlClient(FlightClient.builder(allocator, url)
                .intercept(new ClientCookieMiddleware.Factory()).build());
    }

    /** {@code sql}'s times through a JDBC connection of the Flight SQL driver (prepare, execute, read, close, as tools do). */
    private static double[] jdbcTimes(int port, String sql, int runs, int warmUp) throws Exception {
        try (Connection connection = DriverManager.getConnection(FlightJdbcRunner.url(port))) {
            return times(() -> JdbcResults.readAll(connection, sql), runs, warmUp);
        }
    }

    private static double[] times(FlightSqlClient c, String sql, int runs, int warmUp) throws Exception {
        return times(() -> drain(c, sql), runs, warmUp);
    }

    /** The times in milliseconds of {@code runs} runs of {@code query} after {@code warmUp} unmeasured ones. */
    private static double[] times(WarmTimer.Run query, int runs, int warmUp) throws Exception {
        for (int i = 0; i < warmUp; i++) {
            query.run();
        }
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t = System.nanoTime();
            query.run();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        return ms;
    }

    /** Runs {@code sql} and reads every endpoint's batches to the end. */
    private static void drain(FlightSqlClient c, String sql) throws Exception {
        FlightInfo info = c.execute(sql);
        for (FlightEndpoint endpoint : info.getEndpoints()) {
            try (FlightStream stream = c.getStream(endpoint.getTicket())) {
                while (stream.next()) {
                    stream.getRoot().getRowCount();
                }
            }
        }
    }

    private static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int at = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, at))];
    }

    private static double geomean(List<Double> values) {
        return Math.exp(values.stream().mapToDouble(Math::log).average().orElse(0));
    }
}
