package dev.starling.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table's rows as Java values, for tests: NULL as {@code null}, VARCHAR as String, BOOLEAN as
 * Boolean, DOUBLE as Double, dense foreign keys as the referenced key (Long), everything else in
 * its stored form as Long (DECIMAL scaled, DATE in days).
 */
public final class TableRows {
    private TableRows() { }

    public static List<List<Object>> of(Table table, Catalog catalog) {
        List<List<Object>> rows = new ArrayList<>();
        for (long r = 0; r < table.rowCount(); r++) {
            Object[] row = new Object[table.columns().size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = value(table.column(c), r, catalog);
            }
            rows.add(Arrays.asList(row));
        }
        return rows;
    }

    public static Object value(Column column, long row, Catalog catalog) {
        ColumnChunk chunk = column.chunks().get((int) (row >> Table.CHUNK_SHIFT));
        int r = (int) (row & (Table.CHUNK_ROWS - 1));
        if (chunk.isNull(r)) {
            return null;
        }
        if (column.isDenseCoded()) {
            Table dim = catalog.require(column.denseReference().table());
            return value(dim.column(column.denseReference().keyColumn()), chunk.getInt(r), catalog);
        }
        return switch (column.type().kind()) {
            case VARCHAR -> column.dictionary().get(chunk.getInt(r));
            case BOOLEAN -> chunk.getByte(r) != 0;
            case DOUBLE -> chunk.getDouble(r);
            default -> chunk.getAsLong(r);
        };
    }
}
