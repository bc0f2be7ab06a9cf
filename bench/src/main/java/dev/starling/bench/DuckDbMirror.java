package dev.starling.bench;

import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Copies Starling tables into a DuckDB connection with the same column types and the same values,
 * so both engines can answer the same SQL over the same data. Values are read straight from the
 * storage chunks, never through Starling's query engine (which is what the copy is used to check).
 * Dense-coded foreign keys are written as the key values they stand for. A catalog name with a dot
 * ({@code ssb.lineorder}) becomes a DuckDB schema and table. Keys are not declared in DuckDB: they
 * do not change query answers, and DuckDB would check them row by row while appending.
 */
public final class DuckDbMirror {
    /** Tables from this many rows up are copied by several appenders at once. */
    private static final long PARALLEL_ROWS = 2_000_000;

    private DuckDbMirror() {
    }

    /** Creates (or replaces) every table of the catalog in {@code duck} and copies its rows. */
    public static void copy(Catalog catalog, Connection duck) throws SQLException {
        KeyValues keys = new KeyValues(catalog);
        for (Table table : catalog.tables()) {
            copy(table, keys, duck);
        }
    }

    /** Creates (or replaces) one table of the catalog in {@code duck} and copies its rows. */
    public static void copy(Catalog catalog, String table, Connection duck) throws SQLException {
        copy(catalog.require(table), new KeyValues(catalog), duck);
    }

    private static void copy(Table table, KeyValues keys, Connection duck) throws SQLException {
        QualifiedName name = QualifiedName.of(table.name());
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS " + quote(name.schema()));
            st.execute("CREATE OR REPLACE TABLE " + name.sql() + " (" + columnDefinitions(table) + ")");
        }
        ValueWriter[] writers = new ValueWriter[table.columns().size()];
        for (int c = 0; c < writers.length; c++) {
            writers[c] = ValueWriter.of(table.column(c), keys);
        }
        int stripes = table.rowCount() < PARALLEL_ROWS ? 1
                : Math.min(table.chunkCount(), Runtime.getRuntime().availableProcessors());
        if (stripes == 1) {
            append(table, name, writers, duck.unwrap(DuckDBConnection.class), 0, 1);
            return;
        }
        // DuckDB's appender takes a row at a time: large tables go in stripes of chunks, one
        // connection and appender per core (the rows' order in DuckDB then differs, their set not).
        DuckDBConnection main = duck.unwrap(DuckDBConnection.class);
        List<java.util.concurrent.Future<?>> parts = new java.util.ArrayList<>();
        var pool = java.util.concurrent.Executors.newFixedThreadPool(stripes);
        try {
            for (int s = 0; s < stripes; s++) {
                final int stripe = s;
                parts.add(pool.submit(() -> {
                    try (DuckDBConnection own = main.duplicate()) {
                        append(table, name, writers, own, stripe, stripes);
                    }
                    return null;
                }));
            }
            for (var part : parts) {
                part.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while copying " + table.name(), e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof SQLException sql ? sql : new SQLException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Appends chunks {@code stripe}, {@code stripe + stripes}, ... of {@code table}. */
    private static void append(Table table, QualifiedName name, ValueWriter[] writers, DuckDBConnection duck,
                               int stripe, int stripes) throws SQLException {
        try (DuckDBAppender appender = duck.createAppender(name.schema(), name.table())) {
            for (int chunk = stripe; chunk < table.chunkCount(); chunk += stripes) {
                ColumnChunk[] chunks = new ColumnChunk[writers.length];
                for (int c = 0; c < writers.length; c++) {
                    chunks[c] = table.column(c).chunks().get(chunk);
                }
                int rows = table.chunkRows(chunk);
                for (int r = 0; r < rows; r++) {
                    appender.beginRow();
                    for (int c = 0; c < writers.length; c++) {
                        if (chunks[c].isNull(r)) {
                            appender.appendNull();
                        } else {
                            writers[c].append(appender, chunks[c], r);
                        }
                    }
                    appender.endRow();
                }
            }
        }
    }

    private static String columnDefinitions(Table table) {
        StringJoiner defs = new StringJoiner(", ");
        for (ColumnSchema c : table.schema().columns()) {
            defs.add(quote(c.name()) + " " + duckDbType(c.type()) + (c.nullable() ? "" : " NOT NULL"));
        }
        return defs.toString();
    }

    /** DuckDB's name for a Starling type; VARCHAR lengths are metadata only in both, so they are dropped. */
    static String duckDbType(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> "DECIMAL(" + type.precision() + "," + type.scale() + ")";
            case VARCHAR -> "VARCHAR";
            default -> type.kind().name();
        };
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** A catalog table name split into DuckDB schema and table ({@code main} when unqualified). */
    private record QualifiedName(String schema, String table) {
        static QualifiedName of(String catalogName) {
            String schema = CatalogNames.schemaOf(catalogName);
            return new QualifiedName(schema.isEmpty() ? "main" : schema, CatalogNames.tableOf(catalogName));
        }

        String sql() {
            return quote(schema) + "." + quote(table);
        }
    }

    /** Appends one non-NULL stored value of a column in its DuckDB representation. */
    @FunctionalInterface
    private interface ValueWriter {
        void append(DuckDBAppender appender, ColumnChunk chunk, int row) throws SQLException;

        static ValueWriter of(Column column, KeyValues keys) {
            DataType type = column.type();
            if (column.isDenseCoded()) {
                long[] key = keys.of(column.denseReference().table(), column.denseReference().keyColumn());
                return type.kind() == DataType.Kind.INTEGER
                        ? (a, chunk, r) -> a.append((int) key[chunk.getInt(r)])
                        : (a, chunk, r) -> a.append(key[chunk.getInt(r)]);
            }
            return switch (type.kind()) {
                case INTEGER -> (a, chunk, r) -> a.append(chunk.getInt(r));
                case BIGINT -> (a, chunk, r) -> a.append(chunk.getLong(r));
                case DOUBLE -> (a, chunk, r) -> a.append(chunk.getDouble(r));
                case DATE -> (a, chunk, r) -> a.appendEpochDays(chunk.getInt(r));
                case BOOLEAN -> (a, chunk, r) -> a.append(chunk.getByte(r) != 0);
                case VARCHAR -> {
                    String[] strings = column.dictionary().toArray();
                    yield (a, chunk, r) -> a.append(strings[chunk.getInt(r)]);
                }
                // DuckDB stores DECIMAL(p,s) as a 16-, 32- or 64-bit unscaled integer by precision.
                case DECIMAL -> type.precision() <= 4 ? (a, chunk, r) -> a.appendDecimal((short) chunk.getLong(r))
                        : type.precision() <= 9 ? (a, chunk, r) -> a.appendDecimal((int) chunk.getLong(r))
                        : (a, chunk, r) -> a.appendDecimal(chunk.getLong(r));
            };
        }
    }

    /**
     * The key values of referenced key columns, indexed by row: what a dense code stands for.
     * Computed once per column and shared by every table that references it.
     */
    private static final class KeyValues {
        private final Catalog catalog;
        private final Map<String, long[]> byColumn = new HashMap<>();

        KeyValues(Catalog catalog) {
            this.catalog = catalog;
        }

        long[] of(String table, String column) {
            String id = table + "." + column;
            long[] values = byColumn.get(id);
            if (values == null) {
                values = read(catalog.require(table), column);
                byColumn.put(id, values);
            }
            return values;
        }

        /** A key column may itself be dense-coded (a key that is also a foreign key), so resolve it in turn. */
        private long[] read(Table table, String column) {
            Column c = table.column(column);
            long[] referenced = c.isDenseCoded() ? of(c.denseReference().table(), c.denseReference().keyColumn()) : null;
            long[] out = new long[Math.toIntExact(table.rowCount())];
            int row = 0;
            List<ColumnChunk> chunks = c.chunks();
            for (ColumnChunk chunk : chunks) {
                for (int r = 0; r < chunk.rows(); r++, row++) {
                    out[row] = referenced != null ? referenced[chunk.getInt(r)] : chunk.getAsLong(r);
                }
            }
            return out;
        }
    }
}
