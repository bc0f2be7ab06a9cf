package dev.starling.planner.schema;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.View;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.lookup.CompatibilityLookup;
import org.apache.calcite.schema.lookup.Lookup;
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

    /**
     * The tables of {@code information_schema}, each built from the catalog the first time a query
     * looks it up: {@code columns} plans every view's query, which a query of the others need not wait for.
     */
    private static final class Described extends AbstractSchema {
        private final Catalog catalog;
        private final Function<View, List<Field>> viewColumns;
        private final CatalogSchema owner;
        private final Map<String, Table> built = new HashMap<>();
        private final Lookup<Table> lookup = new CompatibilityLookup<>(this::table, () -> Set.copyOf(InformationSchema.TABLES));

        Described(Catalog catalog, Function<View, List<Field>> viewColumns, CatalogSchema owner) {
            this.catalog = catalog;
            this.viewColumns = viewColumns;
            this.owner = owner;
        }

        @Override
        public Lookup<Table> tables() {
            return lookup;
        }

        private synchronized Table table(String name) {
            if (!InformationSchema.TABLES.contains(name)) {
                return null;
            }
            return built.computeIfAbsent(name, n -> new StarlingTable(InformationSchema.table(n, catalog, viewColumns),
                    List.of(NAME, InformationSchema.NAME, n), owner));
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
