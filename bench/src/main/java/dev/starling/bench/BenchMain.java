package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * TPC-H and SSB through Starling's embedded API and through DuckDB in the same process, on the same
 * generated data: the median of warm runs per query, printed as a table with the geometric mean of
 * the Starling/DuckDB ratio.
 */
@Command(name = "starling-bench", mixinStandardHelpOptions = true,
        description = "Benchmarks Starling's CPU backend against DuckDB on TPC-H and SSB.")
public final class BenchMain implements Callable<Integer> {

    @Option(names = "--sf", description = "Scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--workload", split = ",", description = "tpch, ssb or both (default: ${DEFAULT-VALUE}).")
    private List<Workload> workloads = List.of(Workload.TPCH, Workload.SSB);

    @Option(names = "--runs", description = "Measured runs per query after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    @Option(names = "--queries", split = ",", description = "Only these queries, e.g. Q1,Q6 or Q1.1.")
    private List<String> only = List.of();

    @Option(names = "--no-duckdb", description = "Time Starling only.")
    private boolean noDuckDb;

    @Option(names = "--no-starling", description = "Time DuckDB only (the GPU host's DuckDB bundle has no room for Starling's planner).")
    private boolean noStarling;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        System.out.printf("Starling vs DuckDB, SF %s, median of %d warm runs, %d cores, Java %s%n",
                scaleFactor, runs, Runtime.getRuntime().availableProcessors(), Runtime.version());
        for (Workload workload : workloads) {
            bench(workload);
        }
        return 0;
    }

    private void bench(Workload workload) throws Exception {
        WarmTimer timer = new WarmTimer(runs);
        Catalog catalog = Catalog.inMemory();
        try (QueryRunner starlingRunner = noStarling ? null : new StarlingRunner(catalog);
             DuckDbRunner duck = new DuckDbRunner()) {
            long start = System.nanoTime();
            workload.generate(catalog, scaleFactor);
            System.out.printf("%n%s SF %s generated in %.1f s", workload, scaleFactor, seconds(start));
            if (!noDuckDb) {
                start = System.nanoTime();
                DuckDbMirror.copy(catalog, duck.connection());
                System.out.printf(", copied into DuckDB in %.1f s", seconds(start));
            }
            System.out.println();
            List<List<Object>> rows = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            for (Map.Entry<String, String> q : workload.queries().entrySet()) {
                if (!only.isEmpty() && !only.contains(q.getKey())) {
                    continue;
                }
                int[] resultRows = new int[1];
                Double starling = noStarling ? null
                        : timer.medianMillis(() -> resultRows[0] = starlingRunner.run(q.getValue()));
                Double duckdb = null;
                Double ratio = null;
                if (!noDuckDb) {
                    duckdb = timer.medianMillis(() -> resultRows[0] = duck.run(q.getValue()));
                }
                if (starling != null && duckdb != null) {
                    ratio = starling / duckdb;
                    ratios.add(ratio);
                }
                rows.add(java.util.Arrays.asList(q.getKey(), starling == null ? null : round(starling),
                        duckdb == null ? null : round(duckdb),
                        ratio == null ? null : round(ratio), resultRows[0]));
                System.out.printf("  %s done%n", q.getKey());
            }
            if (!ratios.isEmpty()) {
                double logSum = ratios.stream().mapToDouble(Math::log).sum();
                rows.add(java.util.Arrays.asList("geomean", null, null, round(Math.exp(logSum / ratios.size())), null));
            }
            System.out.print(new QueryResult(List.of(
                    new Field("query", DataType.VARCHAR, false),
                    new Field("starling_ms", DataType.DOUBLE, true),
                    new Field("duckdb_ms", DataType.DOUBLE, true),
                    new Field("ratio", DataType.DOUBLE, true),
                    new Field("rows", DataType.INTEGER, true)), rows).toText());
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
