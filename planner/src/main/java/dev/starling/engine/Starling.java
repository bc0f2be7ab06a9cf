package dev.starling.engine;

import dev.starling.exec.QueryResult;
import dev.starling.storage.Catalog;
import java.nio.file.Path;

/**
 * The embedded API: a catalog (in memory or in a data directory) and SQL over it.
 * Thread-safe: many queries may run at once.
 */
public final class Starling implements AutoCloseable {
    private final Catalog catalog;

    private Starling(Catalog catalog) {
        this.catalog = catalog;
    }

    public static Starling open(Path dataDir) {
        return new Starling(Catalog.open(dataDir));
    }

    public static Starling inMemory() {
        return new Starling(Catalog.inMemory());
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Plans and runs one SQL query. */
    public QueryResult query(String sql) {
        throw new UnsupportedOperationException("TODO " + sql);
    }

    /** Starling's physical plan of a query, with the backend of each pipeline. */
    public String explain(String sql) {
        throw new UnsupportedOperationException("TODO " + sql);
    }

    @Override
    public void close() {
    }
}
