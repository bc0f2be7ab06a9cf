package dev.starling.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The set of tables. Each change writes the new table version durably (when backed by a data
 * directory) before it becomes visible, so a failed write leaves the previous version in place.
 */
public final class Catalog implements AutoCloseable {
    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    private final Map<String, View> views = new ConcurrentHashMap<>();
    private final TableStore store;
    private final AtomicLong version = new AtomicLong();

    /** Held by the thread running {@link #createAll}; the tables its creation names so far. */
    private final ReentrantLock creation = new ReentrantLock();
    /** One lock per table appended to, so that appends to it take turns ({@link #appending}). */
    private final Map<String, ReentrantLock> appends = new ConcurrentHashMap<>();
    private final List<String> creating = new ArrayList<>();

    private Catalog(TableStore store) {
        this.store = store;
    }

    public static Catalog inMemory() {
        return new Catalog(null);
    }

    /**
     * Opens (creating if needed) a data directory and loads every committed table in it; the
     * directory is this process's until {@link #close} (another one that opens it is refused:
     * {@link DataDirectoryInUseException}).
     */
    public static Catalog open(Path dataDir) {
        TableStore store = null;
        try {
            store = new TableStore(dataDir);
            Catalog catalog = new Catalog(store);
            for (Table t : store.loadAll()) {
                catalog.tables.put(t.name(), t);
            }
            for (View v : store.loadViews()) {
                catalog.views.put(v.name(), v);
            }
            return catalog;
        } catch (IOException | RuntimeException e) {
            if (store != null) {
                store.close();
            }
            throw e instanceof IOException io
                    ? new UncheckedIOException("cannot open data directory " + dataDir + ": " + io.getMessage(), io)
                    : (RuntimeException) e;
        }
    }

    /** Lets other processes open the data directory (the tables read so far stay readable). */
    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }

    public Optional<Path> dataDirectory() {
        return store == null ? Optional.empty() : Optional.of(store.directory());
    }

    public Optional<Table> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }

    public Table require(String name) {
        return table(name).orElseThrow(() -> new IllegalArgumentException("table " + name + " does not exist"));
    }

    public Collection<Table> tables() {
        return List.copyOf(tables.values());
    }

    public Optional<View> view(String name) {
        return Optional.ofNullable(views.get(name.toLowerCase(Locale.ROOT)));
    }

    public Collection<View> views() {
        return List.copyOf(views.values());
    }

    /**
     * Adds a view, or replaces one when {@code orReplace}: durable first, then visible; its name
     * may be no table's, nor in {@code information_schema}. {@code check} runs while no other view
     * can change (it checks that the view does not read itself through the others).
     */
    public synchronized void createView(View view, boolean orReplace, java.util.function.Consumer<View> check) {
        if (CatalogNames.schemaOf(view.name()).equals(CatalogNames.INFORMATION_SCHEMA)) {
            throw new IllegalArgumentException("schema " + CatalogNames.INFORMATION_SCHEMA + " describes the catalog; "
                    + "it holds no views");
        }
        if (tables.containsKey(view.name())) {
            throw new IllegalArgumentException("a table named " + view.name() + " exists");
        }
        if (!orReplace && views.containsKey(view.name())) {
            throw new IllegalArgumentException("view " + view.name() + " already exists");
        }
        check.accept(view);
        durably("cannot write view " + view.name(), () -> store.write(view));
        views.put(view.name(), view);
        version.incrementAndGet();
    }

    public synchronized void dropView(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (!views.containsKey(key)) {
            throw new IllegalArgumentException("view " + name + " does not exist");
        }
        durably("cannot drop view " + name, () -> store.deleteView(key));
        views.remove(key);
        version.incrementAndGet();
    }

    /** Increases on every change, so plans and caches can tell they are stale. */
    public long version() {
        return version.get();
    }

    /** Creates or replaces a table: durable first, then visible. */
    public synchronized void put(Table table) {
        if (tables.containsKey(table.name())) {
            requireUnreferenced(table.name(), "replace");
        }
        commit(table);
    }

    /** Adds a new table: durable first, then visible; fails if the name is taken. */
    public synchronized void create(Table table) {
        if (tables.containsKey(table.name())) {
            throw new IllegalArgumentException("table " + table.name() + " already exists");
        }
        commit(table);
    }

    /**
     * Runs {@code create}, which creates the new tables {@code names} (through {@link #put} or
     * {@link #create}; none of them may exist), so that they become durable all or none: they are
     * named in the data directory first and forgotten there once all are committed; a crash in
     * between leaves that record, and opening the directory deletes the tables it names. When
     * {@code create} fails, the tables it created are dropped before the failure goes on. One such
     * creation runs at a time; one started inside another (the demo's two benchmarks) joins it,
     * and the whole is all or none.
     */
    public void createAll(List<String> names, Runnable create) {
        List<String> keys = names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
        creation.lock();
        boolean outermost = creation.getHoldCount() == 1;
        try {
            for (String key : keys) {
                if (tables.containsKey(key)) {
                    throw new IllegalArgumentException("table " + key + " already exists");
                }
            }
            creating.addAll(keys);
            List<String> all = List.copyOf(creating);
            durably("cannot record the tables to create", () -> store.beginCreating(all));
            create.run();
        } catch (RuntimeException | Error e) {
            // the last created first: it may reference the ones before it
            for (String key : List.copyOf(creating).reversed()) {
                if (tables.containsKey(key)) {
                    try {
                        drop(key);
                    } catch (RuntimeException dropping) {
                        e.addSuppressed(dropping);
                    }
                }
            }
            throw e;
        } finally {
            if (outermost) {
                creating.clear();
                durably("cannot record the tables created", () -> store.endCreating());
            }
            creation.unlock();
        }
    }

    /**
     * Runs {@code append} over the current version of table {@code name} with no other append to it
     * running meanwhile, so that the version it builds and commits ({@link #commitAppend}) is over
     * the one it read: two INSERTs, or an INSERT and a LOAD, into one table take turns instead of
     * one failing. Queries are not held up; an append that runs a query (INSERT ... SELECT) holds
     * its table's turn while the query runs.
     */
    public <T> T appending(String name, Function<Table, T> append) {
        ReentrantLock turn = appends.computeIfAbsent(name.toLowerCase(Locale.ROOT), key -> new ReentrantLock());
        turn.lock();
        try {
            return append.apply(require(name));
        } finally {
            turn.unlock();
        }
    }

    /**
     * Commits a version built by {@link TableBuilder#appendingTo}: existing rows keep their
     * positions, so tables whose dense codes point into it stay valid.
     */
    public synchronized void commitAppend(Table base, Table appended) {
        if (tables.get(base.name()) != base) {
            throw new IllegalStateException("table " + base.name() + " changed during the append; retry");
        }
        commit(appended);
    }

    private void commit(Table table) {
        if (views.containsKey(table.name())) {
            throw new IllegalArgumentException("a view named " + table.name() + " exists");
        }
        durably("cannot write table " + table.name(), () -> store.write(table));
        tables.put(table.name(), table);
        version.incrementAndGet();
    }

    public synchronized void drop(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (!tables.containsKey(key)) {
            throw new IllegalArgumentException("table " + name + " does not exist");
        }
        requireUnreferenced(key, "drop");
        durably("cannot drop table " + name, () -> store.delete(key));
        tables.remove(key);
        version.incrementAndGet();
    }

    /** Dense codes are row indexes of the referenced table, so it may grow but not be replaced. */
    private void requireUnreferenced(String name, String action) {
        List<String> users = new ArrayList<>();
        for (Table t : tables.values()) {
            if (t.name().equals(name)) {
                continue;
            }
            for (Column c : t.columns()) {
                if (c.isDenseCoded() && c.denseReference().table().equals(name)) {
                    users.add(t.name() + "." + c.name());
                }
            }
        }
        if (!users.isEmpty()) {
            throw new IllegalArgumentException("cannot " + action + " table " + name + ": referenced by " + users);
        }
    }

    private interface StoreChange {
        void apply() throws IOException;
    }

    /** Applies {@code change} to the data directory (nothing in memory); a failure says {@code failure} and why. */
    private void durably(String failure, StoreChange change) {
        if (store == null) {
            return;
        }
        try {
            change.apply();
        } catch (IOException e) {
            throw new UncheckedIOException(failure + ": " + e.getMessage(), e);
        }
    }
}
