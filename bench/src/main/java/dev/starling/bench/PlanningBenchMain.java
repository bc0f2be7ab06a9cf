package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Planning time of the 22 TPC-H queries, as every query pays it: parse, validate, optimize,
 * translate into Starling's plan, cut into the pipeline graph and place it, print (EXPLAIN, which
 * plans afresh, past the plan cache). The planner's code is warmed up first, as in a running
 * server; each query is then planned {@code --runs} times, the queries interleaved so that a
 * collection or a compilation falls on all of them alike. Prints min, median and 90th percentile.
 */
@Command(name = "planning-bench", mixinStandardHelpOptions = true,
        description = "Planning time of the TPC-H queries (EXPLAIN, no plan cache).")
public final class PlanningBenchMain implements Callable<Integer> {
    @Option(names = "--sf", description = "TPC-H scale factor of the data planned over (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--runs", description = "Measured plannings per query (default: ${DEFAULT-VALUE}).")
    private int runs = 100;

    @Option(names = "--warm-up", description = "Unmeasured rounds over all queries first (default: ${DEFAULT-VALUE}).")
    private int warmUp = 30;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PlanningBenchMain()).execute(args));
    }

    @Override
    public Integer call() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), scaleFactor, "");
            int n = TpchQueries.COUNT;
            for (int round = 0; round < warmUp; round++) {
                for (int q = 1; q <= n; q++) {
                    db.explain(TpchQueries.query(q));
                }
            }
            double[][] millis = new double[n][runs];
            for (int r = 0; r < runs; r++) {
                for (int q = 1; q <= n; q++) {
                    long start = System.nanoTime();
                    db.explain(TpchQueries.query(q));
                    millis[q - 1][r] = (System.nanoTime() - start) / 1e6;
                }
            }
            System.out.printf("TPC-H SF %s, %d plannings per query after %d warm-up rounds; %d cores; Java %s%n%n",
                    scaleFactor, runs, warmUp, Runtime.getRuntime().availableProcessors(), Runtime.version());
            System.out.println("| query | min ms | median ms | p90 ms |");
            System.out.println("| --- | ---: | ---: | ---: |");
            List<Double> medians = new ArrayList<>();
            for (int q = 0; q < n; q++) {
                double[] m = millis[q].clone();
                Arrays.sort(m);
                medians.add(m[m.length / 2]);
                System.out.printf("| Q%d | %.2f | %.2f | %.2f |%n", q + 1, m[0], m[m.length / 2], m[(int) (m.length * 0.9)]);
            }
            double geomean = Math.exp(medians.stream().mapToDouble(Math::log).average().orElse(0));
            System.out.printf("| geomean | | %.2f | |%n", geomean);
        }
        return 0;
    }
}
