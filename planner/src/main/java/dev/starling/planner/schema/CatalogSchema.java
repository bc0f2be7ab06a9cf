package dev.starling.planner.schema;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.View;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The tables of a {@link Catalog} as a Calcite schema, frozen at construction: one query is planned
 * against one consistent set of table versions, and each query builds a new one, so a plan never
 * sees a stale catalog. A catalog name with a dot ({@code ssb.lineorder}) puts the table in a
 * sub-schema, so two benchmarks' {@code customer} tables can live side by side. The sub-schema
 * {@code information_schema} describes the others ({@link InformationSchema}), its tables built
 * when a query first reads them.
 */
public final class CatalogSchema extends AbstractSchema {
    public static final String NAME = "starling";

    private final Map<String, StarlingTable> byCatalogName = new HashMap<>();
    private final Map<String, Table> tables = new HashMap<>();
    private final Map<String, Schema> subSchemas = new HashMap<>();

    /** {@code viewColumns}: a view's columns, as its query's result columns (for {@code information_schema}). */
    public CatalogSchema(Catalog catalog, Function<View, List<Field>> viewColumns) {
        Map<String, Map<String, Table>> nested = new HashMap<>();
        for (dev.starling.storage.Table t : catalog.tables()) {
            String sub = CatalogNames.schemaOf(t.name());
            List<String> path = new ArrayList<>(List.of(NAME));
            Map<String, Table> level = tables;
            if (!sub.isEmpty()) {
                path.add(sub);
                level = nested.computeIfAbsent(sub, k -> new HashMap<>());
            }
            path.add(CatalogNames.tableOf(t.name()));
            StarlingTable table = new StarlingTable(t, path, this);
            level.put(path.getLast(), table);
            byCatalogName.put(t.name(), table);
        }
        nested.forEach((name, subTables) -> subSchemas.put(name, new Namespace(subTables)));
        subSchemas.put(InformationSchema.NAME, new Described(catalog, viewColumns, this));
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return tables;
    }

    @Override
    protected Map<String, Schema> getSubSchemaMap() {
        return subSchemas;
    }

    StarlingTable starlingTable(String catalogName) {
        return byCatalogName.get(catalogName);
    }

    /** The tables of {@code information_schema}, built from the catalog the first time a query looks one up. */
    private static final class Described extends AbstractSchema {
        private final Catalog catalog;
        private final Function<View, List<Field>> viewColumns;
        private final CatalogSchema owner;
        private Map<String, Table> tables;

        Described(Catalog catalog, Function<View, List<Field>> viewColumns, CatalogSchema owner) {
            this.catalog = catalog;
            this.viewColumns = viewColumns;
            this.owner = owner;
        }

        @Override
        protected synchronized Map<String, Table> getTableMap() {
            if (tables == null) {
                tables = new HashMap<>();
                for (dev.starling.storage.Table t : InformationSchema.tables(catalog, viewColumns)) {
                    String name = t.name().substring(InformationSchema.NAME.length() + 1);
                    tables.put(name, new StarlingTable(t, List.of(NAME, InformationSchema.NAME, name), owner));
                }
            }
            return tables;
        }
    }

    /** The tables of one schema-qualified prefix. */
    private static final class Namespace extends AbstractSchema {
        private final Map<String, Table> tables;

        Namespace(Map<String, Table> tables) {
            this.tables = tables;
        }

        @Override
        protected Map<String, Table> getTableMap() {
            return tables;
        }
    }
}
