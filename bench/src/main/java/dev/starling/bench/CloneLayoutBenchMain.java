package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.gpu.cuda.BankGeometry;
import dev.starling.gpu.clone.CloneLayout;
import dev.starling.gpu.clone.CloneLayoutOptimizer;
import dev.starling.gpu.clone.ConflictStatistics;
import dev.starling.storage.gen.ZipfCodes;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The clone-layout experiments of Sitaridi and Ross on synthetic Zipf columns: per access mode,
 * skew, cardinality, budget and window, the copies per value the optimizer makes, its time, and
 * the column's conflict statistics before and after (distinct banks, write and read serialization
 * rounds, window conflicts per chunk).
 */
@Command(name = "starling-clone-bench", mixinStandardHelpOptions = true,
        description = "Optimizes Zipf code columns for shared-memory bank conflicts and prints what it achieved.")
public final class CloneLayoutBenchMain implements Callable<Integer> {

    @Option(names = "--rows", description = "Rows per column (default: ${DEFAULT-VALUE}).")
    private int rows = 10_000_000;

    @Option(names = "--cardinality", split = ",", description = "Distinct codes (default: ${DEFAULT-VALUE}).")
    private List<Integer> cardinalities = List.of(1024);

    @Option(names = "--theta", split = ",", description = "Zipf exponents (default: ${DEFAULT-VALUE}).")
    private List<Double> thetas = List.of(0.0, 0.5, 1.0, 1.5, 2.0);

    @Option(names = "--ranks", description = "ORDERED (code r has popularity rank r, the paper's Table 1 set-up) or "
            + "SHUFFLED (default: ${DEFAULT-VALUE}).")
    private ZipfCodes.Ranks ranks = ZipfCodes.Ranks.SHUFFLED;

    @Option(names = "--budget", split = ",", description = "Copies per value at most (default: ${DEFAULT-VALUE}).")
    private List<Double> budgets = List.of(1.0, 2.0, 4.0, 8.0, 12.0);

    @Option(names = "--window", split = ",", description = "Windows in chunks, for writes (default: ${DEFAULT-VALUE}).")
    private List<Integer> windows = List.of(0, 16);

    @Option(names = "--mode", split = ",", description = "READ, WRITE or both (default: ${DEFAULT-VALUE}).")
    private List<AccessMode> modes = List.of(AccessMode.READ, AccessMode.WRITE);

    public static void main(String[] args) {
        System.exit(new CommandLine(new CloneLayoutBenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() {
        BankGeometry g = BankGeometry.DEFAULT;
        System.out.printf("%d rows per column, %d banks, chunks of %d rows; %d cores; Java %s%n%n", rows, g.banks(),
                g.chunk(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        List<List<Object>> out = new ArrayList<>();
        for (int cardinality : cardinalities) {
            for (double theta : thetas) {
                int[] codes = ZipfCodes.generate(rows, cardinality, theta, 42, ranks);
                for (AccessMode mode : modes) {
                    for (int window : mode == AccessMode.WRITE ? windows : List.of(0)) {
                        ConflictStatistics before = ConflictStatistics.of(codes, g, window);
                        for (double budget : budgets) {
                            CloneLayout layout = new CloneLayoutOptimizer(g, mode, budget, window).optimize(codes, cardinality);
                            ConflictStatistics after = ConflictStatistics.of(layout.slots(), g, window);
                            out.add(List.of(mode.name(), theta, (long) cardinality, budget, (long) window,
                                    layout.copiesPerValue(), layout.optimizeNanos() / 1e6,
                                    before.distinctBanks(), after.distinctBanks(),
                                    mode == AccessMode.WRITE ? before.writeRounds() : before.readRounds(),
                                    mode == AccessMode.WRITE ? after.writeRounds() : after.readRounds(),
                                    before.windowConflicts(), after.windowConflicts()));
                        }
                    }
                }
            }
        }
        System.out.print(new QueryResult(List.of(
                new Field("mode", DataType.VARCHAR, false),
                new Field("theta", DataType.DOUBLE, false),
                new Field("card", DataType.BIGINT, false),
                new Field("budget", DataType.DOUBLE, false),
                new Field("window", DataType.BIGINT, false),
                new Field("copies/value", DataType.DOUBLE, false),
                new Field("optimize_ms", DataType.DOUBLE, false),
                new Field("banks_before", DataType.DOUBLE, false),
                new Field("banks_after", DataType.DOUBLE, false),
                new Field("rounds_before", DataType.DOUBLE, false),
                new Field("rounds_after", DataType.DOUBLE, false),
                new Field("window_before", DataType.DOUBLE, false),
                new Field("window_after", DataType.DOUBLE, false)), out).toText());
        return 0;
    }
}
