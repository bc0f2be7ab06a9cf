package dev.starling.storage;

import java.util.List;

/**
 * An immutable version of a table: columns split into chunks of at most {@link #CHUNK_ROWS} rows,
 * all columns sharing chunk boundaries. Writers build a new version and swap it into the catalog,
 * so readers never see a half-written table.
 */
public record Table(TableSchema schema, List<Column> columns, long rowCount) {

    public static final int CHUNK_SHIFT = 16;
    public static final int CHUNK_ROWS = 1 << CHUNK_SHIFT;

    public Table {
        columns = List.copyOf(columns);
    }

    public String name() {
        return schema.name();
    }

    public Column column(int i) {
        return columns.get(i);
    }

    public Column column(String name) {
        int i = schema.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("table " + name() + " has no column " + name);
        }
        return columns.get(i);
    }

    public int chunkCount() {
        return columns.isEmpty() ? 0 : columns.get(0).chunks().size();
    }

    public int chunkRows(int chunk) {
        return columns.get(0).chunks().get(chunk).rows();
    }
}
