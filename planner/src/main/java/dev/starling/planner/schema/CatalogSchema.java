package dev.starling.planner.schema;

import dev.starling.storage.Catalog;
import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The tables of a {@link Catalog} as a Calcite schema, frozen at construction: one query is planned
 * against one consistent set of table versions, and each query builds a new one, so a plan never
 * sees a stale catalog.
 */
public final class CatalogSchema extends AbstractSchema {
    public static final String NAME = "starling";

    private final Map<String, Table> tables = new HashMap<>();

    public CatalogSchema(Catalog catalog) {
        for (dev.starling.storage.Table t : catalog.tables()) {
            tables.put(t.name(), new StarlingTable(t, NAME, this));
        }
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return tables;
    }

    StarlingTable starlingTable(String name) {
        return (StarlingTable) tables.get(name);
    }
}
