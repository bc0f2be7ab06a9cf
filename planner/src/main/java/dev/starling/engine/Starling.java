package dev.starling.engine;

import dev.starling.exec.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.accel.BackendMode;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.GpuBackend;
import dev.starling.planner.SqlPlanner;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import dev.starling.storage.DataType;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded API: a catalog (in memory or in a data directory) and SQL over it. Aggregation
 * pipelines run on the process's GPU backend when there is one and the backend mode lets them
 * (see {@link BackendMode}), everything else on the CPU backend. Thread-safe: many queries may run
 * at once.
 */
public final class Starling implements AutoCloseable {
    /** {@code EXPLAIN [PLAN FOR] query}, case-insensitive, after leading blanks and comments. */
    private static final Pattern EXPLAIN = Pattern.compile("^(\\s|--[^\\n]*\\n)*(explain(\\s+plan\\s+for)?)\\s",
            Pattern.CASE_INSENSITIVE);

    private final Catalog catalog;
    private final SqlPlanner planner;
    private final Executor executor;
    private final GpuBackend gpu;
    private volatile BackendMode backendMode = BackendMode.AUTO;

    private Starling(Catalog catalog) {
        this.catalog = catalog;
        this.planner = new SqlPlanner(catalog);
        this.gpu = GpuBackend.shared().orElse(null);
        this.executor = new Executor(Runtime.getRuntime().availableProcessors(), catalog, gpu);
    }

    public static Starling open(Path dataDir) {
        return new Starling(Catalog.open(dataDir));
    }

    public static Starling inMemory() {
        return new Starling(Catalog.inMemory());
    }

    /** SQL over an existing catalog (one that a loader or generator filled, or another engine shares). */
    public static Starling over(Catalog catalog) {
        return new Starling(catalog);
    }

    public Catalog catalog() {
        return catalog;
    }

    /** The GPU backend queries may use, if this process has one. */
    public Optional<GpuBackend> gpu() {
        return Optional.ofNullable(gpu);
    }

    public BackendMode backendMode() {
        return backendMode;
    }

    /** Which backend the following queries ask for: auto (the cost model chooses), gpu or cpu. */
    public void setBackendMode(BackendMode mode) {
        this.backendMode = mode;
    }

    /** Plans and runs one SQL query; {@code EXPLAIN query} returns the plan, one line per row. */
    public QueryResult query(String sql) {
        Matcher m = EXPLAIN.matcher(sql);
        if (m.find()) {
            String plan = explain(blank(sql, m.start(2), m.end(2)));
            return new QueryResult(List.of(new Field("plan", DataType.VARCHAR, false)),
                    plan.lines().map(line -> List.<Object>of(line)).toList());
        }
        return executor.collect(planner.plan(sql).plan(), new QueryContext(backendMode));
    }

    /** Starling's physical plan of a query, with the backend of each pipeline and why. */
    public String explain(String sql) {
        BackendMode mode = backendMode;
        return PlanExplainer.explain(planner.plan(sql).plan(),
                a -> gpu == null ? Placement.cpu("") : gpu.place(a, mode));
    }

    /** Replaces a range with spaces, so positions in error messages still match the text the user wrote. */
    private static String blank(String sql, int from, int to) {
        return sql.substring(0, from) + " ".repeat(to - from) + sql.substring(to);
    }

    @Override
    public void close() {
        executor.close();
    }
}
