package dev.starling.bench;

import dev.starling.engine.GpuOptions;
import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.HostMemoryPools;
import dev.starling.storage.Catalog;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Queries over data that is not in GPU memory, through a Flight SQL server in this process and
 * the JDBC driver, the GPU forced: per query the median of hot runs (columns resident), and of
 * cold runs, before each of which every table's columns are evicted from device memory ({@code
 * ALTER TABLE ... SET (gpu_resident = false)}, untimed); the bytes a cold run copied to the
 * device and the chunks its zone maps skipped; and its floor: those bytes over the link's
 * bandwidth plus the hot time. The first cold run of a query is timed apart: it page-locks the
 * table memory it copies from, once. With {@code --budget-bytes} below the fact columns, every run
 * streams them and nothing stays. A cold run's GPU pipelines, those of them that streamed, and
 * those the GPU handed to the CPU are counted; the geomeans of the hot and cold times close the table. {@code --shipdate-order} adds Q6 over a copy of lineitem's
 * columns it reads ordered by ship date, where its year lies in a seventh of the chunks. DuckDB's
 * hot time on the same data is the last column.
 */
@Command(name = "cold-scan-bench", mixinStandardHelpOptions = true,
        description = "Times queries over columns not resident in GPU memory against the PCIe floor.")
public final class ColdScanBenchMain implements Callable<Integer> {
    /** Pinned host-to-device copies on the H100 host (docs/BENCHMARKS.md, transfer methods). */
    private static final double LINK_BYTES_PER_SECOND = 54.8e9;

    @Option(names = "--sf", description = "Scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--workload", description = "tpch or ssb (default: ${DEFAULT-VALUE}).")
    private Workload workload = Workload.TPCH;

    @Option(names = "--queries", split = ",", description = "Only these queries, e.g. Q1,Q6 or Q1.1.")
    private List<String> only = List.of();

    @Option(names = "--runs", description = "Measured runs of each kind per query (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    @Option(names = "--budget-bytes", description = "GPU memory budget (default: ${DEFAULT-VALUE}: nine tenths of the free memory).")
    private long budget;

    @Option(names = "--shipdate-order", description = "Also Q6 over lineitem's columns it reads, ordered by ship date.")
    private boolean shipdateOrder;

    @Option(names = "--no-duckdb", description = "Leave DuckDB out.")
    private boolean noDuckDb;

    @Option(names = "--via", description = "flight (a Flight SQL server and the JDBC driver) or embedded (default: ${DEFAULT-VALUE}).")
    private StarlingUnderTest.Via via = StarlingUnderTest.Via.FLIGHT;

    /** How the benchmark reaches Starling: a query, and evicting a table's columns from device memory. */
    private interface Client extends AutoCloseable {
        void run(String sql) throws Exception;

        void evict(String table) throws Exception;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ColdScanBenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Catalog catalog = Catalog.inMemory();
        GpuOptions gpuOptions = new GpuOptions(true, 0, budget, HostMemoryPools.DEFAULT, null);
        if (via == StarlingUnderTest.Via.EMBEDDED) {
            try (Starling db = Starling.over(catalog, gpuOptions)) {
                GpuBackend gpu = db.gpu().orElseThrow(() -> new IllegalStateException("no GPU in this process"));
                db.setBackendMode(BackendMode.GPU);
                bench(catalog, gpu, new Client() {
                    @Override
                    public void run(String sql) {
                        db.query(sql);
                    }

                    @Override
                    public void evict(String table) {
                        gpu.releaseResident(table);
                    }

                    @Override
                    public void close() {
                    }
                });
            }
            return 0;
        }
        try (StarlingUnderTest starling = new StarlingUnderTest(catalog, true, gpuOptions);
             Connection c = DriverManager.getConnection(FlightJdbcRunner.url(starling.port()));
             Statement st = c.createStatement()) {
            st.execute("SET backend = 'gpu'");
            bench(catalog, starling.gpu().orElseThrow(() -> new IllegalStateException("no GPU in this process")),
                    new Client() {
                        @Override
                        public void run(String sql) throws SQLException {
                            JdbcResults.readAll(c, sql);
                        }

                        @Override
                        public void evict(String table) throws SQLException {
                            st.execute("ALTER TABLE " + table + " SET (gpu_resident = false)");
                        }

                        @Override
                        public void close() {
                        }
                    });
        }
        return 0;
    }

    private void bench(Catalog catalog, GpuBackend gpu, Client client) throws Exception {
        long start = System.nanoTime();
        workload.generate(catalog, scaleFactor);
        Map<String, String> queries = new LinkedHashMap<>();
        workload.queries(scaleFactor).forEach((name, sql) -> {
            if (only.isEmpty() || only.contains(name)) {
                queries.put(name, sql);
            }
        });
        if (shipdateOrder) {
            catalog.put(SortedCopy.of(catalog.require("lineitem"), "lineitem_by_shipdate",
                    List.of("l_shipdate", "l_discount", "l_quantity", "l_extendedprice"), catalog));
            queries.put("Q6 by shipdate", Workload.TPCH.queries(scaleFactor).get("Q6")
                    .replace("lineitem", "lineitem_by_shipdate"));
        }
        System.out.printf("%s SF %s generated in %.1f s", workload, scaleFactor, (System.nanoTime() - start) / 1e9);
        try (DuckDbRunner duck = noDuckDb ? null : new DuckDbRunner()) {
            if (duck != null) {
                DuckDbMirror.copy(catalog, duck.connection());
            }
            System.out.printf("; through %s; %s, GPU memory budget %.1f GB, %d cores%n",
                    via.name().toLowerCase(java.util.Locale.ROOT), gpu.device().describe(),
                    gpu.device().memory().budget() / 1e9, Runtime.getRuntime().availableProcessors());
            List<List<Object>> rows = new ArrayList<>();
            for (Map.Entry<String, String> q : queries.entrySet()) {
                rows.add(measure(q.getKey(), q.getValue(), client, catalog, gpu, duck));
                System.out.printf("  %s done%n", q.getKey());
            }
            System.out.print(new QueryResult(fields(), rows).toText());
            System.out.printf("geomean: hot %.2f ms, cold %.2f ms%n", geomean(rows, 2), geomean(rows, 3));
            System.out.printf("table memory page-locked in place: %.2f GB%n", gpu.device().registrations().bytes() / 1e9);
        }
    }

    private List<Object> measure(String name, String sql, Client client, Catalog catalog, GpuBackend gpu,
                                 DuckDbRunner duck) throws Exception {
        DeviceMemory memory = gpu.device().memory();
        evict(client, catalog);
        long first = System.nanoTime();
        client.run(sql);
        double firstMs = (System.nanoTime() - first) / 1e6;
        WarmTimer timer = new WarmTimer(runs);
        double hot = timer.medianMillis(() -> client.run(sql));
        double[] cold = new double[runs];
        long copied = 0;
        long gpuRuns = 0;
        long streamed = 0;
        long handedBack = 0;
        for (int r = 0; r < runs; r++) {
            evict(client, catalog);
            long before = memory.copiedToDevice();
            long runsBefore = gpu.runs();
            long streamedBefore = gpu.streamedRuns();
            long backBefore = gpu.handedBack();
            long t = System.nanoTime();
            client.run(sql);
            cold[r] = (System.nanoTime() - t) / 1e6;
            copied = memory.copiedToDevice() - before;
            gpuRuns = gpu.runs() - runsBefore;
            streamed = gpu.streamedRuns() - streamedBefore;
            handedBack = gpu.handedBack() - backBefore;
        }
        String scan = gpu.lastRun() == null ? "" : gpu.lastRun().scan();
        double coldMs = WarmTimer.median(cold);
        double floor = copied / LINK_BYTES_PER_SECOND * 1e3 + hot;
        Double duckMs = duck == null ? null : round(new WarmTimer(runs).medianMillis(() -> duck.run(sql)));
        return java.util.Arrays.asList(name, round(firstMs), round(hot), round(coldMs), round(copied / 1e6), round(floor),
                round(coldMs / floor), gpuRuns, streamed, handedBack, scan, duckMs);
    }

    /** Evicts every table's columns from device memory. */
    private static void evict(Client client, Catalog catalog) throws Exception {
        for (Table table : catalog.tables()) {
            client.evict(table.name());
        }
    }

    private static List<Field> fields() {
        List<Field> f = new ArrayList<>();
        f.add(new Field("query", DataType.VARCHAR, false));
        for (String n : List.of("first_ms", "hot_ms", "cold_ms", "copied_mb", "floor_ms", "cold/floor")) {
            f.add(new Field(n, DataType.DOUBLE, true));
        }
        f.add(new Field("gpu_pipelines", DataType.BIGINT, false));
        f.add(new Field("streamed", DataType.BIGINT, false));
        f.add(new Field("handed_back", DataType.BIGINT, false));
        f.add(new Field("last pipeline's scan (cold)", DataType.VARCHAR, true));
        f.add(new Field("duckdb_ms", DataType.DOUBLE, true));
        return f;
    }

    private static double geomean(List<List<Object>> rows, int column) {
        return Math.exp(rows.stream().mapToDouble(r -> Math.log((Double) r.get(column))).average().orElse(0));
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
