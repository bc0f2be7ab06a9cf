package dev.starling.engine.data;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableSchema;
import dev.starling.storage.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers {@code SHOW TABLES} (each table's and view's schema, name and type, as
 * {@code information_schema.tables} names it, and a table's rows, in name order) and
 * {@code DESCRIBE t} (each column's name, type, whether it may be NULL, and the key it belongs to;
 * a view's columns as its query answers them)
 * from the catalog, as read at the statement; {@code SHOW SCHEMAS} is a query of
 * {@code information_schema}.
 */
public final class CatalogListing {
    public static final List<Field> TABLE_FIELDS = List.of(
            new Field("schema_name", DataType.VARCHAR, false),
            new Field("table_name", DataType.VARCHAR, false),
            new Field("table_type", DataType.VARCHAR, false),
            new Field("row_count", DataType.BIGINT, true));
    public static final List<Field> COLUMN_FIELDS = List.of(
            new Field("column_name", DataType.VARCHAR, false),
            new Field("column_type", DataType.VARCHAR, false),
            new Field("nullable", DataType.BOOLEAN, false),
            new Field("key", DataType.VARCHAR, true));

    /** {@code SHOW SCHEMAS}, answered by the query over {@code information_schema} it stands for. */
    public static final String SCHEMAS_QUERY = "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name";

    private CatalogListing() { }

    public static List<List<Object>> tables(Catalog catalog) {
        List<Listed> listed = new ArrayList<>();
        catalog.tables().forEach(t -> listed.add(new Listed(t.name(), "BASE TABLE", t.rowCount())));
        catalog.views().forEach(v -> listed.add(new Listed(v.name(), "VIEW", null)));
        listed.sort(Comparator.comparing(Listed::name));
        List<List<Object>> rows = new ArrayList<>();
        for (Listed l : listed) {
            rows.add(Arrays.asList(CatalogNames.schemaOf(l.name()), CatalogNames.tableOf(l.name()), l.type(), l.rows()));
        }
        return rows;
    }

    /** A table or view as SHOW TABLES lists it: a view has no rows of its own (null). */
    private record Listed(String name, String type, Long rows) { }

    /** {@code DESCRIBE}: a table's columns, or a view's ({@code viewColumns}: its query's result columns, without keys). */
    public static List<List<Object>> columns(Catalog catalog, DataStatement.Describe d, Function<View, List<Field>> viewColumns) {
        Optional<View> view = catalog.table(d.table()).isPresent() ? Optional.empty() : catalog.view(d.table());
        List<List<Object>> rows = new ArrayList<>();
        if (view.isPresent()) {
            for (Field f : viewColumns.apply(view.get())) {
                rows.add(Arrays.asList(f.name(), f.type().toString(), f.nullable(), null));
            }
            return rows;
        }
        TableSchema schema = DataStatementRunner.existing(catalog, d.table()).schema();
        for (ColumnSchema c : schema.columns()) {
            rows.add(Arrays.asList(c.name(), c.type().toString(), c.nullable(), key(schema, c.name())));
        }
        return rows;
    }

    /** The key {@code column} belongs to: the primary key, or the reference of a foreign key (null: none). */
    private static String key(TableSchema schema, String column) {
        List<String> keys = new ArrayList<>();
        if (schema.primaryKey().contains(column)) {
            keys.add("PRIMARY KEY");
        }
        for (ForeignKey fk : schema.foreignKeys()) {
            int at = fk.columns().indexOf(column);
            if (at >= 0) {
                keys.add("REFERENCES " + fk.referencedTable() + " (" + fk.referencedColumns().get(at) + ")");
            }
        }
        return keys.isEmpty() ? null : String.join(", ", keys);
    }
}
