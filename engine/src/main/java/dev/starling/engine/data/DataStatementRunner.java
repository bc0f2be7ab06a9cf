package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.BatchSink;
import dev.starling.exec.QueryContext;
import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.Catalog;
import dev.starling.storage.PrimaryKeys;
import dev.starling.storage.Table;
import dev.starling.storage.View;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.load.LoadException;
import dev.starling.storage.load.LoadFormat;
import dev.starling.storage.load.TableLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/**
 * Runs data statements against the catalog. Each is atomic and durable: a new table version is
 * built whole and only then committed (written to the data directory, then made visible), so a
 * statement that fails half-way leaves every table as it was.
 */
public final class DataStatementRunner {

    /** Runs a query for an INSERT, streaming its result; plans one for a view, to check it. */
    public interface QueryRunner {
        /** Runs query {@code sql} under {@code ctx} (which cancels it), its rows into {@code sink}. */
        List<Field> run(String sql, QueryContext ctx, BatchSink sink);

        /** The result columns of query {@code sql}, planned and not run; an error if it is no query. */
        List<Field> fields(String sql);

        /** Checks that {@code view}, made or replaced, does not read itself through other views. */
        void checkView(View view);

        /** A view's query made in a session whose schema is {@code schema}, its names in that schema written out. */
        String viewQueryInSchema(String sql, String schema);
    }

    /** Keeps tables' columns in GPU memory; it throws a {@link StarlingSqlException} saying why it cannot. */
    public interface GpuResidency {
        void keep(Table table);

        void release(String table);

        /** What keeps an append to {@code base} up to date on the device as its rows come. */
        default AppendWatcher appending(Table base) {
            return AppendWatcher.NONE;
        }
    }

    /** Told of an append's rows as they come and of the version they make, then closed. */
    public interface AppendWatcher extends AutoCloseable {
        AppendWatcher NONE = new AppendWatcher() {
            @Override
            public void rows(TableBuilder builder) { }

            @Override
            public void built(Table table) { }

            @Override
            public void close() { }
        };

        /** The builder holds more rows. */
        void rows(TableBuilder builder);

        /** The append made {@code table}, about to be committed. */
        void built(Table table);

        @Override
        void close();
    }

    private final Catalog catalog;
    private final QueryRunner queries;
    private final GpuResidency residency;
    private volatile IntakeLimits intake = IntakeLimits.UNBOUNDED;

    public DataStatementRunner(Catalog catalog, QueryRunner queries, GpuResidency residency) {
        this.catalog = catalog;
        this.queries = queries;
        this.residency = residency;
    }

    /** Bounds the files LOAD reads and the scale factors GENERATE makes from now on. */
    public void limit(IntakeLimits limits) {
        intake = limits;
    }

    /**
     * Runs {@code statement}; returns the rows it wrote (0 for CREATE and DROP), telling
     * {@code progress} the rows an INSERT, LOAD or COPY has written so far as it goes (a status page
     * shows them while it runs). {@code ctx} stops it: the query of an INSERT or COPY as a query
     * stops, and the writing at its next batch of rows, the statement then failing whole.
     */
    public long run(DataStatement written, QueryContext ctx, LongConsumer reported) {
        LongConsumer progress = stopping(ctx, reported);
        return userErrors(() -> switch (names(ctx).qualify(written)) {
            case DataStatement.CreateTable c -> create(c);
            case DataStatement.DropTable d -> drop(d);
            case DataStatement.CreateView v -> createView(v);
            case DataStatement.DropView d -> dropView(d);
            case DataStatement.Insert i -> insert(i, ctx, progress);
            case DataStatement.Load l -> load(l, progress);
            case DataStatement.CopyTo c -> copyTo(c, ctx, progress);
            case DataStatement.Generate g -> generate(g, ctx);
            case DataStatement.SetGpuResident r -> {
                if (r.resident()) {
                    residency.keep(existing(r.table()));
                } else {
                    residency.release(existing(r.table()).name());
                }
                yield 0;
            }
            case DataStatement.SetOption o -> throw new IllegalStateException(
                    "SET is a session's, not the catalog's: " + o);
            case DataStatement.AnalyzeConflicts a -> throw new IllegalStateException(
                    "ANALYZE CONFLICTS returns rows; it changes nothing: " + a);
            case DataStatement.ShowTables s -> throw new IllegalStateException("SHOW TABLES returns rows; it changes nothing");
            case DataStatement.ShowSchemas s -> throw new IllegalStateException("SHOW SCHEMAS returns rows; it changes nothing");
            case DataStatement.Describe d -> throw new IllegalStateException(
                    "DESCRIBE returns rows; it changes nothing: " + d);
            case DataStatement.GrantRole g -> throw new StarlingSqlException((g.grant() ? "GRANT" : "REVOKE")
                    + " sets the role of a user in a server's auth.users: run it as an administrator connected "
                    + "through Flight SQL");
        });
    }

    /**
     * Uploads {@code rows} (a client's, named {@code named} in errors) into {@code ingest}'s table
     * as one statement: a table it makes appears with all of them, one it replaces changes at once,
     * an append commits as an INSERT does; a failure leaves the tables as they were. Returns the rows
     * written, telling {@code progress} the rows so far.
     */
    public long ingest(Ingest ingest, RecordBatches rows, String named, QueryContext ctx, LongConsumer reported) {
        LongConsumer progress = stopping(ctx, reported);
        return userErrors(() -> {
            checkTableName(ingest.table());
            Table existing = catalog.table(ingest.table()).orElse(null);
            if (existing == null) {
                if (!ingest.createMissing()) {
                    throw new StarlingSqlException("table " + ingest.table() + " does not exist");
                }
                TableSchema schema = ArrowRows.schema(ingest.table(), rows.root().getSchema(), named);
                Table built = filled(new TableBuilder(schema, catalog), rows, named, progress);
                catalog.create(built);
                return built.rowCount();
            }
            return switch (ingest.ifExists()) {
                case FAIL -> throw new StarlingSqlException("table " + existing.name() + " already exists");
                case APPEND -> append(existing, (builder, batches) -> ArrowRows.append(rows, named, builder, batches), progress);
                case REPLACE -> {
                    Table built = filled(new TableBuilder(existing.schema(), catalog), rows, named, progress);
                    PrimaryKeys.check(built, 0, catalog);
                    // in the table's turn, so that no INSERT or LOAD commits between the check and the put
                    catalog.appending(existing.name(), current -> {
                        if (current != existing) {
                            throw new StarlingSqlException("table " + existing.name()
                                    + " changed while the upload ran; nothing was replaced");
                        }
                        catalog.put(built);
                        return null;
                    });
                    residency.release(existing.name());
                    yield built.rowCount();
                }
            };
        });
    }

    /** How the names of a statement run under {@code ctx} read, in its session's schema. */
    private SessionNames names(QueryContext ctx) {
        return new SessionNames(catalog, ctx.settings().schema(), queries::viewQueryInSchema);
    }

    /** {@code progress}, after a check that {@code ctx} has not stopped the statement. */
    private static LongConsumer stopping(QueryContext ctx, LongConsumer progress) {
        return rows -> {
            ctx.checkCancelled();
            progress.accept(rows);
        };
    }

    /** A client's table name is one CREATE TABLE takes: {@code name} or {@code schema.name}. */
    private static void checkTableName(String name) {
        boolean one;
        try {
            Tokens t = new Tokens(name);
            t.tableName();
            one = t.peek().kind() == Tokens.Kind.END;
        } catch (StarlingSqlException notAName) {
            one = false;
        }
        if (!one) {
            throw new StarlingSqlException("'" + name + "' is not a table name: a name, or a schema's and a name joined by '.'");
        }
    }

    private Table filled(TableBuilder builder, RecordBatches rows, String named, LongConsumer progress) {
        ArrowRows.append(rows, named, builder, progress);
        return builder.build();
    }

    /** {@code work}'s rows written, its failures put as the user's errors where they are the user's to fix. */
    private static long userErrors(java.util.function.LongSupplier work) {
        try {
            return work.getAsLong();
        } catch (StarlingSqlException e) {
            throw e;
        } catch (LoadException e) {
            // a bad input file is the user's to fix: its message names the file, line and column
            throw new StarlingSqlException(e.getMessage(), 0, 0, e);
        } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
            throw new StarlingSqlException(e.getMessage());
        }
    }

    private long create(DataStatement.CreateTable c) {
        if (c.ifNotExists() && catalog.table(c.schema().name()).isPresent()) {
            return 0;
        }
        catalog.create(new TableBuilder(c.schema(), catalog).build());
        return 0;
    }

    /** A view is checked when it is made: its query must plan, and its column names match its columns. */
    private long createView(DataStatement.CreateView v) {
        List<Field> fields = queries.fields(v.query());
        if (!v.columns().isEmpty() && v.columns().size() != fields.size()) {
            throw new StarlingSqlException("view " + v.view() + " names " + v.columns().size()
                    + " columns but its query yields " + fields.size());
        }
        if (new java.util.HashSet<>(v.columns()).size() < v.columns().size()) {
            throw new StarlingSqlException("view " + v.view() + " names a column twice: " + v.columns());
        }
        catalog.createView(new View(v.view(), v.columns(), v.query()), v.orReplace(), queries::checkView);
        return 0;
    }

    private long dropView(DataStatement.DropView d) {
        try {
            catalog.dropView(d.view());
        } catch (IllegalArgumentException missing) {
            if (!d.ifExists()) {
                throw missing;
            }
        }
        return 0;
    }

    private long drop(DataStatement.DropTable d) {
        if (d.ifExists() && catalog.table(d.table()).isEmpty()) {
            return 0;
        }
        String name = existing(d.table()).name();
        catalog.drop(d.table());
        residency.release(name);
        return 0;
    }

    private long insert(DataStatement.Insert insert, QueryContext ctx, LongConsumer progress) {
        Table base = existing(insert.table());
        List<String> names = insert.columns().isEmpty()
                ? base.schema().columns().stream().map(c -> c.name()).toList() : insert.columns();
        int[] target = new int[names.size()];
        for (int i = 0; i < target.length; i++) {
            target[i] = base.schema().indexOf(names.get(i));
            if (target[i] < 0) {
                throw new StarlingSqlException("table " + base.name() + " has no column " + names.get(i));
            }
        }
        if (Set.copyOf(names).size() != names.size()) {
            throw new StarlingSqlException("a column is named twice in INSERT INTO " + base.name());
        }
        return append(base, (builder, batches) -> {
            RowAppender appender = new RowAppender(builder, target);
            queries.run(insert.query(), ctx, new BatchSink() {
                @Override
                public void start(List<Field> fields) {
                    if (fields.size() != target.length) {
                        throw new StarlingSqlException("INSERT INTO " + base.name() + " names " + target.length
                                + " columns but its query yields " + fields.size());
                    }
                }

                private long appended;

                @Override
                public void accept(Batch batch) {
                    Object[] row = new Object[batch.width()];
                    for (int r = 0; r < batch.rows(); r++) {
                        for (int c = 0; c < row.length; c++) {
                            row[c] = batch.column(c).value(r);
                        }
                        appender.append(row);
                    }
                    appended += batch.rows();
                    batches.accept(appended);
                }
            });
        }, progress);
    }

    /**
     * Appends to table {@code base} (its version the statement was checked against) the rows
     * {@code fill} adds to a new version of its current one, committed once it keeps its primary
     * key (a write that repeats a key fails whole), other appends to it waiting their turn; returns
     * how many it added.
     */
    private long append(Table base, BiConsumer<TableBuilder, LongConsumer> fill, LongConsumer progress) {
        return catalog.appending(base.name(), current -> {
            if (!current.schema().equals(base.schema())) {
                throw new StarlingSqlException("table " + base.name() + " was replaced while the statement ran");
            }
            TableBuilder builder = TableBuilder.appendingTo(current, catalog);
            long before = builder.rows();
            try (AppendWatcher device = residency.appending(current)) {
                // each batch of rows goes on to the device (a resident table's) as it comes
                fill.accept(builder, rows -> {
                    device.rows(builder);
                    progress.accept(rows);
                });
                device.rows(builder);
                Table built = builder.build();
                PrimaryKeys.check(built, before, catalog);
                device.built(built);
                catalog.commitAppend(current, built);
            }
            return builder.rows() - before;
        });
    }

    private long load(DataStatement.Load load, LongConsumer progress) {
        Table base = existing(load.table());
        Path file = intake.loadable(load.file());
        // FORMAT ARROW reads either Arrow IPC form
        String named = load.format() != null ? load.format() : FileFormats.of(load.file());
        if (named.equals("arrow") || named.equals("arrow stream")) {
            return append(base, (builder, batches) -> ArrowRows.appendFile(file, load.file(), builder, batches), progress);
        }
        if (named.equals("parquet")) {
            return append(base, (builder, batches) -> ParquetRows.appendFile(file, load.file(), builder, batches), progress);
        }
        LoadFormat format = load.format() == null ? LoadFormat.forFile(load.file())
                : load.format().equals("csv") ? LoadFormat.CSV : LoadFormat.TBL;
        return new TableLoader(catalog, progress).append(load.table(), file, format).rowsLoaded();
    }

    /**
     * Writes the query's rows to a file under the load directories, whole or not at all: into a
     * file of its own beside the target, moved over it once complete.
     */
    private long copyTo(DataStatement.CopyTo copy, QueryContext ctx, LongConsumer progress) {
        Path file = intake.writable(copy.file());
        Path partial = file.resolveSibling("." + file.getFileName() + ".partial");
        try {
            long rows;
            try (ResultFile out = ResultFile.open(partial, copy.format(), copy.file())) {
                queries.run(copy.query(), ctx, new BatchSink() {
                    @Override
                    public void start(List<Field> fields) {
                        out.start(fields);
                    }

                    @Override
                    public void accept(Batch batch) {
                        out.accept(batch);
                        progress.accept(out.rows());
                    }

                    @Override
                    public void finish() {
                        out.finish();
                    }
                });
                rows = out.rows();
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + copy.file() + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException e) {
                // the next COPY to the same file replaces it
            }
        }
    }

    private long generate(DataStatement.Generate g, QueryContext ctx) {
        intake.checkScaleFactor(g.scaleFactor());
        boolean tpch = g.benchmark().equals("tpch");
        if (tpch) {
            TpchGenerator.generate(catalog, g.scaleFactor(), g.schema(), ctx::checkCancelled);
        } else {
            SsbGenerator.generate(catalog, g.scaleFactor(), g.schema(), ctx::checkCancelled);
        }
        String prefix = g.schema().isEmpty() ? "" : g.schema() + ".";
        return (tpch ? TpchGenerator.TABLES : SsbGenerator.TABLES).stream()
                .mapToLong(t -> catalog.table(prefix + t).map(Table::rowCount).orElse(0L)).sum();
    }

    private Table existing(String name) {
        return existing(catalog, name);
    }

    /** Table {@code name}, or the statement's error that it does not exist. */
    static Table existing(Catalog catalog, String name) {
        return catalog.table(name).orElseThrow(() -> new StarlingSqlException("table " + name + " does not exist"));
    }
}
