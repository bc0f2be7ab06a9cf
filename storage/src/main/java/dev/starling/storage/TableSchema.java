package dev.starling.storage;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

public record TableSchema(String name, List<ColumnSchema> columns, List<String> primaryKey,
                          List<ForeignKey> foreignKeys) {

    public TableSchema {
        name = name.toLowerCase(Locale.ROOT);
        columns = List.copyOf(columns);
        primaryKey = primaryKey.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        foreignKeys = List.copyOf(foreignKeys);
        for (int i = 0; i < columns.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (columns.get(i).name().equals(columns.get(j).name())) {
                    throw new IllegalArgumentException("table " + name + ": duplicate column " + columns.get(i).name());
                }
            }
        }
        for (String k : primaryKey) {
            requireColumn(name, columns, k);
        }
        for (ForeignKey fk : foreignKeys) {
            for (String c : fk.columns()) {
                requireColumn(name, columns, c);
            }
        }
    }

    private static void requireColumn(String table, List<ColumnSchema> columns, String column) {
        if (columns.stream().noneMatch(c -> c.name().equals(column))) {
            throw new IllegalArgumentException("table " + table + " has no column " + column);
        }
    }

    public int indexOf(String column) {
        String c = column.toLowerCase(Locale.ROOT);
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(c)) {
                return i;
            }
        }
        return -1;
    }

    public ColumnSchema column(int i) {
        return columns.get(i);
    }

    /** The single-column foreign key on this column, if any. */
    public Optional<ForeignKey> singleColumnForeignKey(String column) {
        String c = column.toLowerCase(Locale.ROOT);
        return foreignKeys.stream().filter(fk -> fk.columns().equals(List.of(c))).findFirst();
    }
}
