package dev.starling.bench.fuzz;

import dev.starling.storage.ForeignKey;
import java.util.List;

/** A table a generated query may read, with its foreign keys, the joins it takes part in. */
public record FuzzTable(String name, List<FuzzColumn> columns, List<ForeignKey> foreignKeys, long rows) {
    public FuzzTable {
        columns = List.copyOf(columns);
        foreignKeys = List.copyOf(foreignKeys);
    }
}
