package dev.starling.storage;

import java.util.List;
import java.util.Locale;

/**
 * A named query: {@code sql} (a SELECT, as its creator wrote it) read wherever the name is, under
 * the names {@code columns} gives its result columns (none: the query's own).
 */
public record View(String name, List<String> columns, String sql) {
    public View {
        name = name.toLowerCase(Locale.ROOT);
        columns = List.copyOf(columns);
    }
}
