package dev.starling.storage;

import java.util.List;
import java.util.Locale;

/** A declared foreign key. A single-column key referencing a single-column primary key is stored as dense codes. */
public record ForeignKey(List<String> columns, String referencedTable, List<String> referencedColumns) {
    public ForeignKey {
        columns = columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        referencedTable = referencedTable.toLowerCase(Locale.ROOT);
        referencedColumns = referencedColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        if (columns.size() != referencedColumns.size()) {
            throw new IllegalArgumentException("foreign key " + columns + " references " + referencedColumns
                    + ": column counts differ");
        }
    }

    public static ForeignKey of(String column, String referencedTable, String referencedColumn) {
        return new ForeignKey(List.of(column), referencedTable, List.of(referencedColumn));
    }
}
