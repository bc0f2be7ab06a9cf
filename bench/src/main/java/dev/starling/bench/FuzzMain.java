package dev.starling.bench;

import dev.starling.bench.fuzz.DifferentialRun;
import dev.starling.bench.fuzz.DuckDbOracle;
import dev.starling.bench.fuzz.Engine;
import dev.starling.bench.fuzz.FuzzSchema;
import dev.starling.bench.fuzz.Outcome;
import dev.starling.bench.fuzz.QueryGenerator;
import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.gpu.cuda.KernelCompiler;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Differential fuzzing: random valid queries ({@link QueryGenerator}) over generated TPC-H or SSB
 * data, each answered by Starling under every backend asked for and by an oracle, DuckDB or
 * Starling's CPU backend, compared as the differential tests compare them. Prints a table of
 * outcomes per workload and backend, and each query that does not pass (numbered: the same seed and
 * number regenerate it); exits 1 if any does not.
 */
@Command(name = "starling-fuzz", mixinStandardHelpOptions = true,
        description = "Runs random queries on Starling and an oracle and compares the answers.")
public final class FuzzMain implements Callable<Integer> {

    enum Oracle { DUCKDB, CPU }

    @Option(names = "--sf", description = "Scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 0.01;

    @Option(names = "--workload", split = ",", description = "tpch, ssb or both (default: ${DEFAULT-VALUE}).")
    private List<Workload> workloads = List.of(Workload.TPCH, Workload.SSB);

    @Option(names = "--queries", description = "Queries per workload (default: ${DEFAULT-VALUE}).")
    private long queries = 1000;

    @Option(names = "--first", description = "Number of the first query (default: ${DEFAULT-VALUE}).")
    private long first = 0;

    @Option(names = "--seed", description = "Seed of the generator (default: ${DEFAULT-VALUE}).")
    private long seed = 1;

    @Option(names = "--backends", split = ",", description = "Starling backends tested: cpu, gpu, auto, both (default: ${DEFAULT-VALUE}).")
    private List<BackendMode> backends = List.of(BackendMode.CPU);

    @Option(names = "--oracle", description = "duckdb, or cpu: Starling's CPU backend (default: ${DEFAULT-VALUE}).")
    private Oracle oracle = Oracle.DUCKDB;

    @Option(names = "--timeout", description = "Seconds a Starling query may run (default: ${DEFAULT-VALUE}).")
    private int timeoutSeconds = 60;

    @Option(names = "--failures", description = "File to write each query that does not pass to, one per line.")
    private Path failuresFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FuzzMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        System.out.printf("Differential fuzzing, SF %s, seed %d, queries %d..%d, oracle %s, %d cores, Java %s%n",
                scaleFactor, seed, first, first + queries - 1, oracle.name().toLowerCase(Locale.ROOT),
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.printf("%n| workload | backend | queries | agree | both refused | mismatch | refused | answered where oracle refused | seconds |%n");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        List<String> failed = new ArrayList<>();
        for (Workload workload : workloads) {
            failed.addAll(fuzz(workload));
        }
        for (String f : failed) {
            System.out.println();
            System.out.println(f);
        }
        if (failuresFile != null) {
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(failuresFile))) {
                failed.forEach(out::println);
            }
        }
        return failed.isEmpty() ? 0 : 1;
    }

    private List<String> fuzz(Workload workload) throws Exception {
        try (Starling db = Starling.inMemory()) {
            workload.generate(db.catalog(), scaleFactor);
            try (DuckDbOracle duck = oracle == Oracle.DUCKDB ? new DuckDbOracle(db.catalog()) : null) {
                return fuzz(workload, db, duck != null ? duck
                        : Engine.starling(db, BackendMode.CPU, Duration.ofSeconds(timeoutSeconds)));
            }
        }
    }

    /** Each backend's run of the workload's queries against {@code reference}: the failures, described. */
    private List<String> fuzz(Workload workload, Starling db, Engine reference) {
        List<String> failed = new ArrayList<>();
        QueryGenerator generator = new QueryGenerator(FuzzSchema.of(db), seed);
        for (BackendMode backend : backends) {
            DifferentialRun run = new DifferentialRun(
                    Engine.starling(db, backend, Duration.ofSeconds(timeoutSeconds)), reference);
            long start = System.nanoTime();
            KernelCompiler.Stats compiledBefore = db.gpu().map(g -> g.device().compilerStats()).orElse(null);
            for (long n = first; n < first + queries; n++) {
                run.check(n, generator.query(n));
            }
            var t = run.tally();
            System.out.printf("| %s | %s | %d | %d | %d | %d | %d | %d | %.1f |%n", workload.name().toLowerCase(Locale.ROOT),
                    backend.name().toLowerCase(Locale.ROOT), queries, t.get(Outcome.AGREE), t.get(Outcome.BOTH_REFUSED),
                    t.get(Outcome.MISMATCH), t.get(Outcome.REFUSED), t.get(Outcome.ANSWERED_REFUSED),
                    (System.nanoTime() - start) / 1e9);
            if (compiledBefore != null) {
                // how much of the GPU's time went to compiling each new query shape's kernels
                KernelCompiler.Stats compiled = db.gpu().get().device().compilerStats();
                System.err.printf("%s %s: %d kernels compiled in %.1f s, %d read from the disk cache%n",
                        workload.name().toLowerCase(Locale.ROOT), backend.name().toLowerCase(Locale.ROOT),
                        compiled.compiled() - compiledBefore.compiled(),
                        (compiled.compileMillis() - compiledBefore.compileMillis()) / 1e3,
                        compiled.cacheHits() - compiledBefore.cacheHits());
            }
            for (DifferentialRun.Failure f : run.failures()) {
                failed.add(String.format("-- %s %s query %d (seed %d): %s%n%s%n%s", workload.name().toLowerCase(Locale.ROOT),
                        backend.name().toLowerCase(Locale.ROOT), f.number(), seed, f.outcome(), f.sql(), f.detail()));
            }
        }
        return failed;
    }
}
