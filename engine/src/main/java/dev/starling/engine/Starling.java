package dev.starling.engine;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.BatchSink;
import dev.starling.exec.run.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.engine.data.DataStatement;
import dev.starling.engine.data.Ingest;
import dev.starling.engine.data.RecordBatches;
import dev.starling.engine.data.DataStatementParser;
import dev.starling.engine.data.ParameterBinder;
import dev.starling.engine.data.SessionNames;
import dev.starling.engine.data.CatalogListing;
import dev.starling.engine.data.ConflictAnalysis;
import dev.starling.engine.data.DataStatementRunner;
import dev.starling.engine.data.IntakeLimits;
import dev.starling.exec.op.ValuesBatch;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.cache.ResidentAppend;
import dev.starling.gpu.cuda.BankGeometry;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.planner.SqlPlanner;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.storage.Catalog;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.View;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded API: a catalog (in memory or in a data directory) and SQL over it. A query is
 * planned into a pipeline graph with each pipeline placed once, before it runs, for the devices of
 * this engine (see {@link GpuOptions}) under the session's settings (see {@link BackendMode});
 * the executor runs that graph, GPU pipelines on the process's GPU backend, the rest on the CPU
 * backend. Thread-safe: many queries may run at once.
 */
public final class Starling implements AutoCloseable {
    /** {@code EXPLAIN ANALYZE query}, case-insensitive, after leading blanks and comments. */
    private static final Pattern EXPLAIN_ANALYZE = Pattern.compile("^(\\s|--[^\\n]*\\n)*(explain\\s+analyze)\\s",
            Pattern.CASE_INSENSITIVE);
    /** {@code EXPLAIN [PLAN FOR] query}, case-insensitive, after leading blanks and comments. */
    private static final Pattern EXPLAIN = Pattern.compile("^(\\s|--[^\\n]*\\n)*(explain(\\s+plan\\s+for)?)\\s",
            Pattern.CASE_INSENSITIVE);

    private final Catalog catalog;
    private final SqlPlanner planner;
    private final Executor executor;
    private final GpuBackend gpu;
    private final DevicePlacer placer;
    private final DataStatementRunner dataStatements;
    private final PlanCache plans = new PlanCache();
    private volatile Settings settings = Settings.DEFAULT;
    private volatile QueryAdmission admission = new QueryAdmission(defaultMaxRunning(), defaultQueryStateBytes());
    /** Whether closing the engine lets the data directory go (it opened the catalog). */
    private boolean ownsCatalog;

    private Starling(Catalog catalog, GpuOptions options) {
        this.catalog = catalog;
        this.planner = new SqlPlanner(catalog);
        this.gpu = options.enabled() ? GpuBackend.shared(options.device(), options.budgetBytes(), options.pools()).orElse(null) : null;
        this.placer = DevicePlacer.of(gpu, options.namedProfile(), catalog);
        this.executor = new Executor(Runtime.getRuntime().availableProcessors(), catalog, gpu);
        this.dataStatements = new DataStatementRunner(catalog, new Queries(), new GpuTables());
    }

    /** The queries of data statements: an INSERT's rows, a view's check. */
    private final class Queries implements DataStatementRunner.QueryRunner {
        @Override
        public List<Field> run(String sql, QueryContext ctx, BatchSink sink) {
            PreparedQuery q = query(sql, ctx.settings(), "INSERT takes its rows from a SELECT or VALUES");
            execute(q, ctx, sink);
            return q.fields();
        }

        @Override
        public List<Field> fields(String sql) {
            return query(sql, settings, "a view is a SELECT, WITH or VALUES query").fields();
        }

        @Override
        public void checkView(View view) {
            planner.checkView(view);
        }

        @Override
        public String viewQueryInSchema(String sql, String schema) {
            return planner.viewQueryInSchema(sql, schema);
        }

        private PreparedQuery query(String sql, Settings session, String otherwise) {
            PreparedQuery q = prepare(sql, session);
            if (q.isUpdate() || q.isComputed()) {
                throw new StarlingSqlException(otherwise);
            }
            return q;
        }
    }

    /** Table residency in the GPU's column cache, for ALTER TABLE ... SET (gpu_resident = ...). */
    private final class GpuTables implements DataStatementRunner.GpuResidency {
        @Override
        public void keep(Table table) {
            if (gpu == null) {
                throw new StarlingSqlException("there is no GPU backend here, so no table can be kept in GPU memory");
            }
            try {
                gpu.keepResident(table);
            } catch (GpuOutOfMemoryException e) {
                throw new StarlingSqlException("table " + table.name() + " does not fit in the GPU memory budget: "
                        + e.getMessage());
            }
        }

        @Override
        public void release(String table) {
            if (gpu != null) {
                gpu.releaseResident(table);
            }
        }

        @Override
        public DataStatementRunner.AppendWatcher appending(Table base) {
            ResidentAppend device = gpu == null ? null : gpu.appending(base);
            if (device == null) {
                return DataStatementRunner.AppendWatcher.NONE;
            }
            return new DataStatementRunner.AppendWatcher() {
                @Override
                public void rows(TableBuilder builder) {
                    device.rows(builder);
                }

                @Override
                public void built(Table table) {
                    device.built(table);
                }

                @Override
                public void close() {
                    device.close();
                }
            };
        }
    }

    public static Starling open(Path dataDir) {
        return open(dataDir, GpuOptions.DEFAULT);
    }

    /** An engine over data directory {@code dataDir}, which it holds against other processes until closed. */
    public static Starling open(Path dataDir, GpuOptions gpu) {
        Catalog catalog = Catalog.open(dataDir);
        try {
            Starling db = new Starling(catalog, gpu);
            db.ownsCatalog = true;
            return db;
        } catch (RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    public static Starling inMemory() {
        return inMemory(GpuOptions.DEFAULT);
    }

    public static Starling inMemory(GpuOptions gpu) {
        return new Starling(Catalog.inMemory(), gpu);
    }

    /** SQL over an existing catalog (one that a loader or generator filled, or another engine shares). */
    public static Starling over(Catalog catalog) {
        return over(catalog, GpuOptions.DEFAULT);
    }

    /** An engine over {@code catalog} whose GPU backend, if any, is opened with {@code gpu}. */
    public static Starling over(Catalog catalog, GpuOptions gpu) {
        return new Starling(catalog, gpu);
    }

    public Catalog catalog() {
        return catalog;
    }

    /** The GPU backend queries may use, if this process has one. */
    public Optional<GpuBackend> gpu() {
        return Optional.ofNullable(gpu);
    }

    /** The GPU profile queries are planned for: the detected device's or the named one, if any. */
    public Optional<DeviceProfile> gpuProfile() {
        return placer.profile();
    }

    /** The settings the following queries run with (a server session may have its own). */
    public Settings settings() {
        return settings;
    }

    public void setSettings(Settings settings) {
        this.settings = settings;
    }

    /**
     * Bounds what the following data statements take from outside the catalog: the files LOAD
     * reads and the scale factors GENERATE makes (unbounded until set).
     */
    public void setIntakeLimits(IntakeLimits limits) {
        dataStatements.limit(limits);
    }

    /** Which backend the following queries ask for: auto (the cost model chooses), gpu or cpu. */
    public void setBackendMode(BackendMode mode) {
        this.settings = settings.withBackend(mode);
    }

    /** Plans and runs one SQL query; {@code EXPLAIN query} returns the plan, one line per row. */
    public QueryResult query(String sql) {
        return query(prepare(sql));
    }

    /** Runs a prepared statement (its parameters bound) and keeps its whole result. */
    public QueryResult query(PreparedQuery q) {
        return query(q, newContext());
    }

    /** As {@link #query(PreparedQuery)}, under {@code ctx}'s settings; cancelling {@code ctx} stops a query. */
    public QueryResult query(PreparedQuery q, QueryContext ctx) {
        if (q.isUpdate()) {
            return new QueryResult(PreparedQuery.ROWS_WRITTEN, List.of(List.of(update(q))));
        }
        if (q.isComputed()) {
            return new QueryResult(q.fields(), q.computedRows());
        }
        if (q.analyzes()) {
            return new QueryResult(q.fields(), analyze(q, ctx));
        }
        PipelineGraph graph = placedFor(q, ctx.settings()).graph();
        try (QueryAdmission.Admitted admitted = admit(graph, ctx)) {
            return executor.collect(graph, ctx);
        }
    }

    /**
     * Parses and plans {@code sql} (a query, {@code EXPLAIN query}, or a data statement: CREATE
     * TABLE, DROP TABLE, INSERT, LOAD, GENERATE) without running it.
     */
    public PreparedQuery prepare(String sql) {
        return prepare(sql, settings);
    }

    /**
     * As {@link #prepare(String)}, with EXPLAIN showing placements under {@code session}'s settings.
     * Semicolons that end the statement are left out.
     */
    public PreparedQuery prepare(String text, Settings session) {
        String sql = StatementText.of(text);
        int markers = ParameterBinder.markers(sql).length;
        Optional<DataStatement> data = DataStatementParser.parse(sql);
        if (data.isPresent() && markers == 0) {
            switch (data.get()) {
                case DataStatement.AnalyzeConflicts a -> {
                    return new PreparedQuery(sql, ConflictAnalysis.FIELDS, null, ConflictAnalysis.rows(catalog,
                            (DataStatement.AnalyzeConflicts) names(session).qualify(a), BankGeometry.DEFAULT), null, List.of());
                }
                case DataStatement.ShowTables s -> {
                    return new PreparedQuery(sql, CatalogListing.TABLE_FIELDS, null, CatalogListing.tables(catalog), null,
                            List.of());
                }
                case DataStatement.Describe d -> {
                    return new PreparedQuery(sql, CatalogListing.COLUMN_FIELDS, null,
                            CatalogListing.columns(catalog, (DataStatement.Describe) names(session).qualify(d), this::viewColumns),
                            null, List.of());
                }
                case DataStatement.ShowSchemas s -> {
                    return prepare(CatalogListing.SCHEMAS_QUERY, session);
                }
                default -> { }
            }
        }
        Matcher analyze = EXPLAIN_ANALYZE.matcher(sql);
        if (analyze.find()) {
            PreparedQuery query = prepare(blank(sql, analyze.start(2), analyze.end(2)), session);
            if (query.isUpdate() || query.isComputed() || query.analyzes()) {
                throw new StarlingSqlException("EXPLAIN ANALYZE runs a query (SELECT, WITH or VALUES) and shows what "
                        + "its plan did; it cannot run this statement");
            }
            return PreparedQuery.analyzing(sql, query);
        }
        if (markers > 0 && data.orElse(null) instanceof DataStatement.CreateView) {
            throw new StarlingSqlException("a view's query cannot have parameters (?): the view is kept as written");
        }
        if (data.isPresent()) {
            return new PreparedQuery(sql, List.of(), null, null, data.get(),
                    markers == 0 ? List.of() : dataParameterTypes(sql, names(session).qualify(data.get()), markers));
        }
        if (markers > 0 && !EXPLAIN.matcher(sql).find()) {
            // optimized once with its markers; binding values then puts them in and translates
            try {
                return plans.get(sql, session.planning(), catalog.version(),
                        () -> PreparedQuery.templated(sql, planner.template(sql, session.schema())));
            } catch (StarlingSqlException notWithMarkers) {
                // validated alone below (which reports a mistake); bound, it is planned with its values written in
            }
        }
        if (markers > 0) {
            SqlPlanner.Signature signature = planner.signature(sql, session.schema());
            return new PreparedQuery(sql, signature.fields(), null, null, null, signature.parameters());
        }
        Matcher m = EXPLAIN.matcher(sql);
        if (m.find()) {
            String plan = explain(blank(sql, m.start(2), m.end(2)), session);
            return new PreparedQuery(sql, PreparedQuery.PLAN, null, plan.lines().map(line -> List.<Object>of(line)).toList(),
                    null, List.of());
        }
        // the version is read before planning, so a plan of tables that change meanwhile is never reused
        Settings placement = session.planning();
        return plans.get(sql, placement, catalog.version(), () -> placed(sql, planner.plan(sql, placement.schema()), placement));
    }

    /** {@code planned}, the plan of {@code sql}, with its pipelines placed under {@code placement}. */
    private PreparedQuery placed(String sql, SqlPlanner.Plan planned, Settings placement) {
        PlanNode plan = planned.plan();
        return new PreparedQuery(sql, plan.output(), PipelineGraph.of(plan, planned.estimates(), placer, placement),
                null, null, List.of());
    }

    /** How a data statement of a session with {@code session}'s settings reads its names. */
    private SessionNames names(Settings session) {
        return new SessionNames(catalog, session.schema(), planner::viewQueryInSchema);
    }

    /** {@code q}, placed under {@code session}'s settings: as it is when it was, else prepared again. */
    private PreparedQuery placedFor(PreparedQuery q, Settings session) {
        return q.graph().settings().equals(session.planning()) ? q : prepare(q.sql(), session);
    }

    /**
     * The types of a data statement's parameters: in an INSERT's VALUES, a marker standing for a
     * whole value takes its column's type; any other marker is text, converted where it is used.
     */
    private List<DataType> dataParameterTypes(String sql, DataStatement statement, int markers) {
        List<DataType> types = new ArrayList<>(java.util.Collections.nCopies(markers, DataType.VARCHAR));
        if (statement instanceof DataStatement.Insert insert) {
            var schema = catalog.table(insert.table()).map(t -> t.schema()).orElse(null);
            if (schema != null) {
                List<String> columns = insert.columns().isEmpty()
                        ? schema.columns().stream().map(c -> c.name()).toList() : insert.columns();
                int[] position = ParameterBinder.valuesPositions(sql);
                for (int p = 0; p < markers; p++) {
                    int column = position[p];
                    if (column >= 0 && column < columns.size() && schema.indexOf(columns.get(column)) >= 0) {
                        types.set(p, schema.column(schema.indexOf(columns.get(column))).type());
                    }
                }
            }
        }
        return types;
    }

    /** The statement with {@code values} in place of its parameter markers, prepared to run under this engine's settings. */
    public PreparedQuery bind(PreparedQuery q, List<Object> values) {
        return bind(q, values, settings);
    }

    /**
     * The statement with {@code values} in place of its parameter markers, prepared to run for a
     * session with {@code session}'s settings. A query is bound into the plan it was optimized into
     * with its markers (optimized again only when a table changed since), without Calcite; a value
     * that is not plainly of its marker's type, and a data statement, have the values written into
     * the statement's text, which is prepared as written.
     */
    public PreparedQuery bind(PreparedQuery q, List<Object> values, Settings session) {
        String written = ParameterBinder.bind(q.sql(), q.parameters(), values);
        if (q.template() != null) {
            PreparedQuery current = prepare(q.sql(), session);
            Optional<SqlPlanner.Plan> bound = current.template() == null ? Optional.empty()
                    : current.template().bind(values.stream().map(ParameterBinder::text).toList());
            if (bound.isPresent()) {
                return placed(written, bound.get(), session.planning());
            }
        }
        return prepare(written, session);
    }

    /** How many statements Calcite has optimized since the engine opened (a cached plan or a bound template is none). */
    public long optimizations() {
        return planner.optimizations();
    }

    /** Runs a prepared data statement, atomically and durably; returns the rows it wrote. SET applies to this engine. */
    public long update(PreparedQuery q) {
        Updated done = update(q, settings);
        settings = done.settings();
        return done.rows();
    }

    /** What a data statement did: the rows it wrote, and its session's settings after it (a SET changes them). */
    public record Updated(long rows, Settings settings) { }

    /**
     * Runs a prepared data statement for a session whose settings are {@code session}: a data
     * change atomically and durably; a SET by returning the settings it makes, which the caller
     * keeps for that session (the engine's own, or a server connection's).
     */
    public Updated update(PreparedQuery q, Settings session) {
        return update(q, session, rows -> { });
    }

    /**
     * As {@link #update(PreparedQuery, Settings)}, telling {@code progress} the rows an INSERT,
     * LOAD or COPY has written so far, as it goes.
     */
    public Updated update(PreparedQuery q, Settings session, LongConsumer progress) {
        return update(q, session, newContext(session), progress);
    }

    /**
     * As {@link #update(PreparedQuery, Settings, LongConsumer)}, under {@code ctx}: cancelling it
     * (or its time limit) stops the statement's query and its writing, the statement then failing
     * whole.
     */
    public Updated update(PreparedQuery q, Settings session, QueryContext ctx, LongConsumer progress) {
        if (q.update() instanceof DataStatement.SetOption set) {
            return new Updated(0, session.with(set.name(), set.value()));
        }
        if (q.needsParameters()) {
            throw new StarlingSqlException("the statement has " + q.parameters().size() + " parameters and none were bound");
        }
        if (!q.isUpdate()) {
            throw new IllegalArgumentException("not a data statement: " + q.sql());
        }
        return new Updated(dataStatements.run(q.update(), ctx, progress), session);
    }

    /**
     * Uploads a client's record batches ({@code named} in errors) into {@code ingest}'s table,
     * atomically and durably as a data statement; the rows written, {@code progress} told them as
     * they go.
     */
    public long ingest(Ingest ingest, RecordBatches rows, String named, LongConsumer progress) {
        return ingest(ingest, rows, named, newContext(), progress);
    }

    /** As {@link #ingest(Ingest, RecordBatches, String, LongConsumer)}, stopped by {@code ctx} at its next batch. */
    public long ingest(Ingest ingest, RecordBatches rows, String named, QueryContext ctx, LongConsumer progress) {
        return dataStatements.ingest(ingest, rows, named, ctx, progress);
    }

    /**
     * Runs a prepared query, handing its result to {@code sink} batch by batch as it is produced
     * (nothing is held whole); {@code ctx} cancels it. A context made with {@link #newContext()}
     * carries this engine's settings.
     */
    public void execute(PreparedQuery q, QueryContext ctx, BatchSink sink) {
        if (q.isUpdate()) {
            throw new IllegalArgumentException("a data statement has no result to execute; run it with update()");
        }
        if (q.needsParameters()) {
            throw new StarlingSqlException("the query has " + q.parameters().size() + " parameters and none were bound");
        }
        if (q.isComputed() || q.analyzes()) {
            sink.start(q.fields());
            sink.accept(ValuesBatch.of(new ValuesNode(q.fields(), q.analyzes() ? analyze(q, ctx) : q.computedRows())));
            sink.finish();
            return;
        }
        PipelineGraph graph = placedFor(q, ctx.settings()).graph();
        try (QueryAdmission.Admitted admitted = admit(graph, ctx)) {
            executor.run(graph, ctx, sink);
        }
    }

    /** Waits for {@code graph}'s turn to run under {@code ctx} (see {@link #setAdmission}). */
    private QueryAdmission.Admitted admit(PipelineGraph graph, QueryContext ctx) {
        return admission.admit(ctx, stateBytes(graph));
    }

    /** The host memory the optimizer expects {@code graph}'s breakers (joins, aggregations, sorts) to keep. */
    private static long stateBytes(PipelineGraph graph) {
        long bytes = 0;
        java.util.ArrayDeque<PlanNode> nodes = new java.util.ArrayDeque<>(List.of(graph.root()));
        while (!nodes.isEmpty()) {
            PlanNode node = nodes.pop();
            bytes += dev.starling.exec.run.StateMemory.of(node, graph.estimates()).orElse(0);
            nodes.addAll(node.inputs());
        }
        return bytes;
    }

    /**
     * Lets at most {@code maxRunning} queries run at once, with state the optimizer estimates at no
     * more than {@code stateBytes} together; the others wait their turn (see {@link QueryAdmission}).
     */
    public void setAdmission(int maxRunning, long stateBytes) {
        admission = new QueryAdmission(maxRunning, stateBytes);
    }

    /** How many queries run at once unless {@link #setAdmission} says otherwise: four a processor. */
    public static int defaultMaxRunning() {
        return 4 * Runtime.getRuntime().availableProcessors();
    }

    /** The estimated state running queries may hold together unless {@link #setAdmission} says otherwise: half the heap. */
    public static long defaultQueryStateBytes() {
        return Runtime.getRuntime().maxMemory() / 2;
    }

    /** Queries waiting for their turn to run now. */
    public int queriesWaiting() {
        return admission.waiting();
    }

    /** Queries admitted and running now. */
    public int queriesRunning() {
        return admission.running();
    }

    /**
     * Runs EXPLAIN ANALYZE's query under {@code ctx}, its rows counted and dropped, and answers with
     * its time and rows, then its plan with what each pipeline did, a line a row.
     */
    private List<List<Object>> analyze(PreparedQuery q, QueryContext ctx) {
        if (q.needsParameters()) {
            throw new StarlingSqlException("the query has " + q.parameters().size() + " parameters and none were bound");
        }
        PipelineGraph graph = placedFor(q, ctx.settings()).graph();
        long[] rows = {0};
        long start = System.nanoTime();
        try (QueryAdmission.Admitted admitted = admit(graph, ctx)) {
            executor.run(graph, ctx, batch -> rows[0] += batch.rows());
        }
        String ran = String.format("ran in %.2f ms, %,d rows, state memory at most %s", (System.nanoTime() - start) / 1e6,
                rows[0], Settings.describeSize(ctx.peakBytes()));
        List<List<Object>> lines = new ArrayList<>();
        lines.add(List.of(ran));
        PlanExplainer.analyzed(graph, ctx).lines().forEach(line -> lines.add(List.of(line)));
        return lines;
    }

    /** The columns of {@code view}, as its query's result columns under the view's names. */
    public List<Field> viewColumns(View view) {
        return planner.viewColumns(view);
    }


    /** A context for one query with this engine's current settings. */
    public QueryContext newContext() {
        return new QueryContext(settings);
    }

    /** A context for one query of a session with its own settings. */
    public QueryContext newContext(Settings session) {
        return new QueryContext(session);
    }

    /** Starling's physical plan of a query, with the backend of each pipeline and why. */
    public String explain(String sql) {
        return explain(StatementText.of(sql), settings);
    }

    private String explain(String sql, Settings session) {
        SqlPlanner.Plan planned = planner.plan(sql, session.schema());
        return PlanExplainer.explain(PipelineGraph.of(planned.plan(), planned.estimates(), placer, session),
                planned.estimates());
    }

    /** Replaces a range with spaces, so positions in error messages still match the text the user wrote. */
    private static String blank(String sql, int from, int to) {
        return sql.substring(0, from) + " ".repeat(to - from) + sql.substring(to);
    }

    @Override
    public void close() {
        try {
            executor.close();
        } finally {
            if (ownsCatalog) {
                catalog.close();
            }
        }
    }
}
