package dev.starling.storage;

import java.util.List;

/**
 * One column of a table: its chunks, its dictionary (VARCHAR) and, when it is a single-column
 * foreign key to a single-column primary key, the referenced table and key column: the chunks then
 * hold dense codes (the referenced row index) and the key value is that table's key at the code.
 */
public record Column(ColumnSchema schema, List<ColumnChunk> chunks, Dictionary dictionary,
                     DenseReference denseReference, ColumnStats stats) {

    /** The dimension a dense-coded column points into. */
    public record DenseReference(String table, String keyColumn) { }

    public Column {
        chunks = List.copyOf(chunks);
    }

    public boolean isDenseCoded() {
        return denseReference != null;
    }

    public DataType type() {
        return schema.type();
    }

    public String name() {
        return schema.name();
    }

    /** How values are stored: codes are INT32 whatever the declared type. */
    public DataType.Physical physical() {
        return isDenseCoded() ? DataType.Physical.INT32 : schema.type().physical();
    }
}
