package dev.starling.bench;

import dev.starling.difftest.ResultComparator;
import dev.starling.difftest.ResultRows;
import dev.starling.difftest.RowOrder;
import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * TPC-H and SSB on Starling and on DuckDB in the same process, on the same generated data: per
 * query, the median of warm runs for each Starling backend asked for and for DuckDB (taken in turns:
 * one run of each, round after round), DuckDB's time
 * over each backend's (the speedup), and the geometric means. Starling is reached through a Flight
 * SQL server in the process and the Flight SQL JDBC driver unless {@code --via embedded} says
 * otherwise, or through a server already running ({@code --server}); DuckDB through its own
 * in-process JDBC driver. Both read every value of every result. Before a query is timed, every
 * engine's answer is compared with DuckDB's (values, and order where the query orders); a
 * difference is printed and fails the run. Beside the times, the GPU's kernel time and floor for
 * the query, as the server's EXPLAIN ANALYZE accounts them.
 */
@Command(name = "starling-bench", mixinStandardHelpOptions = true,
        description = "Benchmarks Starling's backends against DuckDB on TPC-H and SSB.")
public final class BenchMain implements Callable<Integer> {

    @Option(names = "--sf", description = "Scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--workload", split = ",", description = "tpch, ssb, topn (TPC-H's lineitem cut by ORDER BY ... LIMIT), sort (millions of its rows sorted), or several (default: ${DEFAULT-VALUE}).")
    private List<Workload> workloads = List.of(Workload.TPCH, Workload.SSB);

    @Option(names = "--runs", description = "Measured runs per query after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    @Option(names = "--queries", split = ",", description = "Only these queries, e.g. Q1,Q6 or Q1.1.")
    private List<String> only = List.of();

    @Option(names = "--backends", split = ",", description = "Starling backends to time, a column each: auto, gpu, both, cpu (default: ${DEFAULT-VALUE}).")
    private List<BackendMode> backends = List.of(BackendMode.AUTO);

    @Option(names = "--via", split = ",", description = "flight (a Flight SQL server and the JDBC driver), embedded, "
            + "or both: a column for each with each backend (default: ${DEFAULT-VALUE}).")
    private List<StarlingUnderTest.Via> vias = List.of(StarlingUnderTest.Via.FLIGHT);

    @Option(names = "--warm-up", description = "SELECT 1 statements per Starling client before timing, so that the "
            + "client's and server's code is compiled as in a running server (default: ${DEFAULT-VALUE}).")
    private int warmUp = 2000;

    @Option(names = "--json", description = "Also write the results as JSON to this file.")
    private java.nio.file.Path json;

    @Option(names = "--chart", description = "Also draw the medians as a PNG chart into this file.")
    private java.nio.file.Path chart;

    @Option(names = "--no-duckdb", description = "Time Starling only.")
    private boolean noDuckDb;

    @Option(names = "--no-starling", description = "Time DuckDB only.")
    private boolean noStarling;

    @Option(names = "--server", paramLabel = "HOST:PORT", description = "Time a Starling server already running there "
            + "(through the JDBC driver) instead of one started in this process; the workload's data is generated "
            + "on it into a schema of its own (bench_tpch_sf1, say) unless that schema holds it.")
    private String server;

    @Option(names = "--tls", description = "Reach --server over TLS.")
    private boolean tls;

    @Option(names = "--user", description = "The user to log in to --server as, where it asks for a login.")
    private String user;

    @Option(names = "--password", description = "That user's password (default: the environment's STARLING_PASSWORD).",
            defaultValue = "${env:STARLING_PASSWORD}")
    private String password;

    public static void main(String[] args) {
        // the chart is drawn off screen, also where a display is set
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (server != null && vias.contains(StarlingUnderTest.Via.EMBEDDED)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--server is reached through Flight SQL: --via embedded times the engine in this process");
        }
        System.out.printf("Starling (%s, through %s) vs DuckDB, SF %s, median of %d warm runs, %d cores, Java %s%n",
                noStarling ? "-" : names(backends), server != null ? "the server at " + server
                        : String.join(" and ", vias.stream().map(v -> v.name().toLowerCase(Locale.ROOT)).toList()), scaleFactor, runs,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        for (Workload workload : workloads) {
            bench(workload);
        }
        return 0;
    }

    private void bench(Workload workload) throws Exception {
        WarmTimer timer = new WarmTimer(runs);
        List<Client> timed = new ArrayList<>();
        for (StarlingUnderTest.Via via : noStarling ? List.<StarlingUnderTest.Via>of() : vias) {
            for (BackendMode backend : backends) {
                timed.add(new Client(vias.size() > 1 ? name(backend) + "_" + via.name().toLowerCase(Locale.ROOT) : name(backend),
                        via, backend));
            }
        }
        Catalog catalog = Catalog.inMemory();
        RunningServer running = server == null || noStarling ? null : new RunningServer(server, tls, user, password);
        try (StarlingUnderTest starling = noStarling || running != null ? null
                : new StarlingUnderTest(catalog, vias.contains(StarlingUnderTest.Via.FLIGHT));
             DuckDbRunner duck = noDuckDb ? null : new DuckDbRunner()) {
            long start = System.nanoTime();
            workload.generate(catalog, scaleFactor);
            System.out.printf("%n%s SF %s generated in %.1f s", workload, scaleFactor, seconds(start));
            if (duck != null) {
                start = System.nanoTime();
                DuckDbMirror.copy(catalog, duck.connection());
                System.out.printf(", copied into DuckDB in %.1f s", seconds(start));
            }
            System.out.println();
            String schema = running == null ? "" : running.ready(workload, scaleFactor, catalog);
            if (starling != null && !starling.hasGpu() && backends.stream().anyMatch(b -> b != BackendMode.CPU)) {
                System.out.println("no GPU backend in this process: every backend runs on the CPU");
            }
            List<QueryRunner> clients = new ArrayList<>();
            try {
                for (Client c : timed) {
                    QueryRunner client = running != null ? running.client(c.backend(), schema) : starling.client(c.via(), c.backend());
                    clients.add(client);
                    for (int i = 0; i < warmUp; i++) {
                        client.run("SELECT 1");
                    }
                }
                // the GPU's account comes from the first client that may use it
                int accounted = java.util.stream.IntStream.range(0, timed.size())
                        .filter(c -> timed.get(c).backend() != BackendMode.CPU).findFirst().orElse(-1);
                List<List<Object>> rows = new ArrayList<>();
                List<double[]> times = new ArrayList<>();
                List<String> labels = new ArrayList<>(timed.stream().map(Client::label).toList());
                labels.add("duckdb");
                Map<String, Object> setup = new java.util.LinkedHashMap<>();
                setup.put("workload", workload.toString());
                setup.put("scale_factor", scaleFactor);
                setup.put("date", java.time.LocalDate.now().toString());
                setup.put("cores", Runtime.getRuntime().availableProcessors());
                setup.put("server", running != null ? running.address() : "in this process");
                setup.put("gpu", starling != null && starling.hasGpu() ? starling.gpuName() : null);
                setup.put("runs", runs);
                BenchReport report = new BenchReport(workload + " SF " + scaleFactor + ", median ms", setup, labels);
                int wrong = 0;
                for (Map.Entry<String, String> q : workload.queries(scaleFactor).entrySet()) {
                    if (!only.isEmpty() && !only.contains(q.getKey())) {
                        continue;
                    }
                    Answers answers = answers(q.getValue(), timed, clients, duck);
                    answers.differences().forEach(d -> System.out.printf("  %s: %s%n", q.getKey(), d));
                    wrong += answers.differences().isEmpty() ? 0 : 1;
                    List<WarmTimer.Run> engines = new ArrayList<>();
                    for (QueryRunner client : clients) {
                        engines.add(() -> client.run(q.getValue()));
                    }
                    if (duck != null) {
                        engines.add(() -> duck.run(q.getValue()));
                    }
                    double[] ms = Arrays.copyOf(timer.interleavedMedianMillis(engines), timed.size() + 1);
                    if (duck == null) {
                        ms[timed.size()] = Double.NaN;
                    }
                    times.add(ms);
                    GpuAccount gpu = accounted < 0 ? null : GpuAccount.of(clients.get(accounted)
                            .answer("EXPLAIN ANALYZE " + q.getValue()).rows().stream()
                            .map(line -> String.valueOf(line.getFirst())).toList()).orElse(null);
                    rows.add(row(q.getKey(), ms, gpu, answers));
                    report.add(q.getKey(), ms, answers.rows(), gpu);
                    System.out.printf("  %s done%n", q.getKey());
                }
                rows.add(row("geomean", geomeans(times), null, null));
                System.out.print(new QueryResult(fields(timed), rows).toText());
                if (accounted >= 0) {
                    System.out.printf("kernel_ms and floor_ms: the GPU pipelines of one run of %s (EXPLAIN ANALYZE): "
                            + "their kernels, and their fact columns read whole at the device's measured bandwidth%n",
                            timed.get(accounted).label());
                }
                if (json != null) {
                    report.writeJson(json);
                    System.out.println("results: " + json);
                }
                if (chart != null) {
                    report.writeChart(chart);
                    System.out.println("chart: " + chart);
                }
                if (wrong > 0) {
                    throw new IllegalStateException(wrong + " queries answered differently; see above");
                }
            } finally {
                for (QueryRunner client : clients) {
                    client.close();
                }
            }
        }
    }

    /** One query's answers compared: the differences from DuckDB's (or the first client's, without DuckDB), and its rows. */
    private record Answers(List<String> differences, Long rows) { }

    private static Answers answers(String sql, List<Client> timed, List<QueryRunner> clients, DuckDbRunner duck)
            throws Exception {
        List<String> names = new ArrayList<>(timed.stream().map(Client::label).toList());
        List<ResultRows> got = new ArrayList<>();
        for (QueryRunner client : clients) {
            got.add(client.answer(sql));
        }
        if (duck != null) {
            names.addFirst("duckdb");
            got.addFirst(duck.answer(sql));
        }
        if (got.isEmpty()) {
            return new Answers(List.of(), null);
        }
        ResultRows expected = got.getFirst();
        RowOrder order = RowOrder.of(sql, expected.columns());
        List<String> differences = new ArrayList<>();
        for (int e = 1; e < got.size(); e++) {
            String d = ResultComparator.difference(names.getFirst(), expected, names.get(e), got.get(e), order);
            if (d != null) {
                differences.add(d);
            }
        }
        return new Answers(differences, (long) expected.rows().size());
    }

    /**
     * The times of each backend and DuckDB, DuckDB's time over each backend's, the GPU's account,
     * the rows and whether the answers agree.
     */
    private List<Object> row(String query, double[] ms, GpuAccount gpu, Answers answers) {
        List<Object> row = new ArrayList<>();
        row.add(query);
        for (double t : ms) {
            row.add(Double.isNaN(t) ? null : round(t));
        }
        double duckdb = ms[ms.length - 1];
        for (int b = 0; b < ms.length - 1; b++) {
            row.add(Double.isNaN(duckdb) ? null : round(duckdb / ms[b]));
        }
        row.add(gpu == null ? null : round(gpu.kernelMillis()));
        row.add(gpu == null ? null : round(gpu.floorMillis()));
        row.add(answers == null ? null : answers.rows());
        row.add(answers == null ? null : answers.differences().isEmpty() ? "equal" : "DIFFER");
        return row;
    }

    private static double[] geomeans(List<double[]> times) {
        int columns = times.isEmpty() ? 0 : times.get(0).length;
        double[] geomeans = new double[columns];
        for (int c = 0; c < columns; c++) {
            int column = c;
            geomeans[c] = Math.exp(times.stream().mapToDouble(t -> Math.log(t[column])).average().orElse(Double.NaN));
        }
        return geomeans;
    }

    /** A timed Starling client: how it comes, the backend it asks for, and its columns' label. */
    private record Client(String label, StarlingUnderTest.Via via, BackendMode backend) { }

    private static List<Field> fields(List<Client> timed) {
        List<Field> fields = new ArrayList<>();
        fields.add(new Field("query", DataType.VARCHAR, false));
        for (Client c : timed) {
            fields.add(new Field(c.label() + "_ms", DataType.DOUBLE, true));
        }
        fields.add(new Field("duckdb_ms", DataType.DOUBLE, true));
        for (Client c : timed) {
            fields.add(new Field("duckdb/" + c.label(), DataType.DOUBLE, true));
        }
        fields.add(new Field("kernel_ms", DataType.DOUBLE, true));
        fields.add(new Field("floor_ms", DataType.DOUBLE, true));
        fields.add(new Field("rows", DataType.BIGINT, true));
        fields.add(new Field("answers", DataType.VARCHAR, true));
        return fields;
    }

    private static String names(List<BackendMode> modes) {
        return String.join(", ", modes.stream().map(BenchMain::name).toList());
    }

    private static String name(BackendMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
