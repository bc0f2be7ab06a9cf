package dev.starling.bench.fuzz;

import dev.starling.storage.ForeignKey;
import java.util.List;

/** A table a generated query may read, with its foreign keys, the joins it takes part in. */
public record FuzzTable(String name, List<FuzzColumn> columns, List<String> primaryKey,
                        List<ForeignKey> foreignKeys, long rows) {
    public FuzzTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        foreignKeys = List.copyOf(foreignKeys);
    }

    public FuzzColumn column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(this.name + " has no column " + name));
    }
}
