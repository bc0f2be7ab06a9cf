package dev.starling.bench;

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
 * otherwise; DuckDB through its own in-process JDBC driver. Both read every value of every result.
 * {@code rows} is the result's row count where all engines agree; a disagreement is printed.
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

    public static void main(String[] args) {
        // the chart is drawn off screen, also where a display is set
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        System.out.printf("Starling (%s, through %s) vs DuckDB, SF %s, median of %d warm runs, %d cores, Java %s%n",
                noStarling ? "-" : names(backends), String.join(" and ", vias.stream().map(v -> v.name().toLowerCase(Locale.ROOT)).toList()), scaleFactor, runs,
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
        try (StarlingUnderTest starling = noStarling ? null
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
            if (starling != null && !starling.hasGpu() && backends.stream().anyMatch(b -> b != BackendMode.CPU)) {
                System.out.println("no GPU backend in this process: every backend runs on the CPU");
            }
            List<QueryRunner> clients = new ArrayList<>();
            try {
                for (Client c : timed) {
                    QueryRunner client = starling.client(c.via(), c.backend());
                    clients.add(client);
                    for (int i = 0; i < warmUp; i++) {
                        client.run("SELECT 1");
                    }
                }
                List<List<Object>> rows = new ArrayList<>();
                List<double[]> times = new ArrayList<>();
                List<String> labels = new ArrayList<>(timed.stream().map(Client::label).toList());
                labels.add("duckdb");
                Map<String, Object> setup = new java.util.LinkedHashMap<>();
                setup.put("workload", workload.toString());
                setup.put("scale_factor", scaleFactor);
                setup.put("date", java.time.LocalDate.now().toString());
                setup.put("cores", Runtime.getRuntime().availableProcessors());
                setup.put("gpu", starling != null && starling.hasGpu() ? starling.gpuName() : null);
                setup.put("runs", runs);
                BenchReport report = new BenchReport(workload + " SF " + scaleFactor + ", median ms", setup, labels);
                for (Map.Entry<String, String> q : workload.queries(scaleFactor).entrySet()) {
                    if (!only.isEmpty() && !only.contains(q.getKey())) {
                        continue;
                    }
                    long[] resultRows = new long[timed.size() + 1];
                    List<WarmTimer.Run> engines = new ArrayList<>();
                    for (int b = 0; b < timed.size(); b++) {
                        QueryRunner client = clients.get(b);
                        int column = b;
                        engines.add(() -> resultRows[column] = client.run(q.getValue()));
                    }
                    if (duck != null) {
                        engines.add(() -> resultRows[timed.size()] = duck.run(q.getValue()));
                    }
                    double[] ms = Arrays.copyOf(timer.interleavedMedianMillis(engines), timed.size() + 1);
                    if (duck == null) {
                        ms[timed.size()] = Double.NaN;
                    }
                    times.add(ms);
                    if (duck == null) {
                        resultRows[timed.size()] = timed.isEmpty() ? 0 : resultRows[0];
                    }
                    boolean agree = Arrays.stream(resultRows).distinct().count() == 1;
                    if (!agree) {
                        System.out.printf("  %s: the engines' row counts differ: %s%n", q.getKey(),
                                Arrays.toString(resultRows));
                    }
                    rows.add(row(q.getKey(), ms, agree ? resultRows[0] : null));
                    report.add(q.getKey(), ms, agree ? resultRows[0] : null);
                    System.out.printf("  %s done%n", q.getKey());
                }
                rows.add(row("geomean", geomeans(times), null));
                System.out.print(new QueryResult(fields(timed), rows).toText());
                if (json != null) {
                    report.writeJson(json);
                    System.out.println("results: " + json);
                }
                if (chart != null) {
                    report.writeChart(chart);
                    System.out.println("chart: " + chart);
                }
            } finally {
                for (QueryRunner client : clients) {
                    client.close();
                }
            }
        }
    }

    /** The times of each backend and DuckDB, then DuckDB's time over each backend's. */
    private List<Object> row(String query, double[] ms, Long resultRows) {
        List<Object> row = new ArrayList<>();
        row.add(query);
        for (double t : ms) {
            row.add(Double.isNaN(t) ? null : round(t));
        }
        double duckdb = ms[ms.length - 1];
        for (int b = 0; b < ms.length - 1; b++) {
            row.add(Double.isNaN(duckdb) ? null : round(duckdb / ms[b]));
        }
        row.add(resultRows);
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
        fields.add(new Field("rows", DataType.BIGINT, true));
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
