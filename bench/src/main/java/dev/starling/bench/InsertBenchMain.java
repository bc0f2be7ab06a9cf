package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.TpchGenerator;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What a small write costs as a table grows: one-row INSERTs into TPC-H's lineitem (16 columns, 4
 * of them strings, its largest dictionary a comment per row) at each scale factor asked, embedded,
 * each a new table version. An append's cost should follow its own rows, not the table's. Prints
 * the median and 90th percentile per scale factor.
 */
@Command(name = "insert-bench", mixinStandardHelpOptions = true,
        description = "One-row INSERT latency into lineitem at growing scale factors.")
public final class InsertBenchMain implements Callable<Integer> {
    @Option(names = "--sf", split = ",", description = "TPC-H scale factors (default: ${DEFAULT-VALUE}).")
    private List<Double> scaleFactors = List.of(0.01, 0.1, 0.5);

    @Option(names = "--runs", description = "Measured INSERTs per scale factor, after as many unmeasured (default: ${DEFAULT-VALUE}).")
    private int runs = 20;

    public static void main(String[] args) {
        System.exit(new CommandLine(new InsertBenchMain()).execute(args));
    }

    @Override
    public Integer call() {
        System.out.printf("one-row INSERT into lineitem, %d runs after %d unmeasured; %d cores; Java %s%n%n", runs, runs,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.println("| SF | lineitem rows | median ms | p90 ms |");
        System.out.println("| ---: | ---: | ---: | ---: |");
        for (double sf : scaleFactors) {
            try (Starling db = Starling.inMemory()) {
                TpchGenerator.generate(db.catalog(), sf, "");
                long rows = db.catalog().table("lineitem").orElseThrow().rowCount();
                double[] millis = new double[runs];
                for (int i = 0; i < 2 * runs; i++) {
                    long start = System.nanoTime();
                    // line numbers past TPC-H's seven keep the primary key (l_orderkey, l_linenumber) unique
                    db.query("INSERT INTO lineitem VALUES (1, 1, 1, " + (100 + i) + ", 1.00, 2.00, 0.05, 0.01, 'N', 'O', "
                            + "DATE '1998-01-01', DATE '1998-01-02', DATE '1998-01-03', 'NONE', 'AIR', 'row " + i + "')");
                    if (i >= runs) {
                        millis[i - runs] = (System.nanoTime() - start) / 1e6;
                    }
                }
                Arrays.sort(millis);
                System.out.printf("| %s | %,d | %.1f | %.1f |%n", sf, rows, millis[runs / 2], millis[(int) (runs * 0.9)]);
            }
        }
        return 0;
    }
}
