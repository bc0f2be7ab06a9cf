package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryResult;
import dev.starling.exec.BackendMode;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.storage.gen.ZipfCodes;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Sitaridi and Ross's experiments on the GPU, over a Zipf column per skew and cardinality. Writes:
 * {@code SELECT a, COUNT(*) FROM f GROUP BY a}, with a block's 32-bit shared-memory counters one per
 * group (no layout) and through clone layouts of each budget and window. Reads: {@code SELECT
 * COUNT(*) FROM f JOIN d ON a = k WHERE v <> 0}, the dimension staged in shared memory as is (no
 * layout) and replicated through read layouts of each budget. Prints the kernel's
 * median time, rows and bytes per second, the floor (bytes read at the measured device
 * bandwidth), and the first run's time, which includes building the layout.
 */
@Command(name = "starling-clone-gpu-bench", mixinStandardHelpOptions = true,
        description = "Times grouped counts through clone layouts on the GPU and prints a table.")
public final class CloneGpuBenchMain implements Callable<Integer> {

    @Option(names = "--rows", description = "Fact rows (default: ${DEFAULT-VALUE}).")
    private int rows = 32 << 20;

    @Option(names = "--cardinality", split = ",", description = "Distinct codes (default: ${DEFAULT-VALUE}).")
    private List<Integer> cardinalities = List.of(1024);

    @Option(names = "--theta", split = ",", description = "Zipf exponents (default: ${DEFAULT-VALUE}).")
    private List<Double> thetas = List.of(0.0, 0.5, 1.0, 1.5, 2.0);

    @Option(names = "--budget", split = ",", description = "Entries per value (default: ${DEFAULT-VALUE}).")
    private List<Double> budgets = List.of(1.0, 2.0, 4.0, 8.0, 12.0);

    @Option(names = "--window", split = ",", description = "Windows in chunks (default: ${DEFAULT-VALUE}).")
    private List<Integer> windows = List.of(0, 16);

    @Option(names = "--runs", description = "Timed runs after the first (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    @Option(names = "--mode", description = "WRITE: counts grouped by the column; READ: a join through it to a "
            + "dimension in shared memory (default: ${DEFAULT-VALUE}).")
    private AccessMode mode = AccessMode.WRITE;

    public static void main(String[] args) {
        System.exit(new CommandLine(new CloneGpuBenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            if (gpu == null) {
                System.err.println("no GPU: this benchmark runs on the GPU host");
                return 1;
            }
            double bandwidth = DeviceBandwidth.measure(gpu.device(), 1L << 30, 5);
            System.out.printf("%s; device bandwidth %.0f GB/s; %d rows; median of %d runs; Java %s%n%n",
                    gpu.device().describe(), bandwidth / 1e9, rows, runs, System.getProperty("java.version"));
            db.setBackendMode(BackendMode.GPU);
            List<List<Object>> out = new ArrayList<>();
            for (int cardinality : cardinalities) {
                for (double theta : thetas) {
                    String table = String.format(Locale.ROOT, "f_%d_%d", cardinality, Math.round(theta * 10));
                    if (mode == AccessMode.READ) {
                        dimension(db, "d_" + table, cardinality);
                    }
                    create(db, table, ZipfCodes.generate(rows, cardinality, theta, 42, ZipfCodes.Ranks.SHUFFLED),
                            mode == AccessMode.READ ? "d_" + table : null);
                    String sql = mode == AccessMode.WRITE ? "SELECT a, COUNT(*) FROM " + table + " GROUP BY a"
                            : "SELECT COUNT(*) FROM " + table + " JOIN d_" + table + " ON a = k WHERE v <> 0";
                    db.query("SET clone_layouts = off");
                    double off = measure(db, gpu, sql, theta, cardinality, "none", 4, bandwidth, Double.NaN, out);
                    db.query("SET clone_layouts = on");
                    for (int window : windows) {
                        db.query("SET clone_window = " + window);
                        for (double budget : budgets) {
                            db.query("SET clone_budget = " + budget);
                            measure(db, gpu, sql, theta, cardinality, "budget " + budget + " window " + window, 8,
                                    bandwidth, off, out);
                        }
                    }
                    db.query("DROP TABLE " + table);
                    if (mode == AccessMode.READ) {
                        db.query("DROP TABLE d_" + table);
                    }
                    gpu.columnCache().clear();
                }
            }
            System.out.print(new QueryResult(List.of(
                    new Field("theta", DataType.DOUBLE, false),
                    new Field("card", DataType.BIGINT, false),
                    new Field("clones", DataType.VARCHAR, false),
                    new Field("first_ms", DataType.DOUBLE, false),
                    new Field("kernel_ms", DataType.DOUBLE, false),
                    new Field("floor_ms", DataType.DOUBLE, false),
                    new Field("Grows_s", DataType.DOUBLE, false),
                    new Field("GB_s", DataType.DOUBLE, false),
                    new Field("vs_none", DataType.DOUBLE, false)), out).toText());
        }
        return 0;
    }

    /**
     * Runs {@code sql} once (building any layout), then {@link #runs} times; adds a row; returns the
     * median kernel time. {@code bandwidth}: bytes per second.
     */
    private double measure(Starling db, GpuBackend gpu, String sql, double theta, int cardinality, String clones,
                           int bytesPerRow, double bandwidth, double off, List<List<Object>> out) {
        long start = System.nanoTime();
        db.query(sql);
        double first = (System.nanoTime() - start) / 1e6;
        double[] kernel = new double[runs];
        for (int r = 0; r < runs; r++) {
            db.query(sql);
            kernel[r] = gpu.lastRun().kernelMillis();
        }
        double median = WarmTimer.median(kernel);
        double bytes = (double) rows * bytesPerRow;
        out.add(List.of(theta, (long) cardinality, clones, first, median, bytes / bandwidth * 1e3,
                rows / median / 1e6, bytes / median / 1e6, Double.isNaN(off) ? 1.0 : off / median));
        return median;
    }

    /** The fact table: column {@code a} holds the codes, a foreign key into {@code dimension} when there is one. */
    private static void create(Starling db, String name, int[] codes, String dimension) {
        TableBuilder b = new TableBuilder(new TableSchema(name, List.of(new ColumnSchema("a", DataType.INTEGER, false)),
                List.of(), dimension == null ? List.of() : List.of(ForeignKey.of("a", dimension, "k"))), db.catalog());
        for (int code : codes) {
            b.setLong(0, code);
            b.endRow();
        }
        db.catalog().put(b.build());
    }

    /** A dimension of {@code rows} rows, key k = its code, and a value v the join filters on (one row in seven fails). */
    private static void dimension(Starling db, String name, int rows) {
        TableBuilder b = new TableBuilder(new TableSchema(name, List.of(new ColumnSchema("k", DataType.INTEGER, false),
                new ColumnSchema("v", DataType.INTEGER, false)), List.of("k"), List.of()), db.catalog());
        for (int k = 0; k < rows; k++) {
            b.setLong(0, k);
            b.setLong(1, k % 7);
            b.endRow();
        }
        db.catalog().put(b.build());
    }
}
