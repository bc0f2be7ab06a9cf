package dev.starling.planner.schema;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import dev.starling.storage.View;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The SQL standard's {@code information_schema} over a catalog, as read when a query is planned:
 * {@code schemata}, {@code tables} and {@code columns} (views too), and {@code views}, tables built from the catalog's schemas
 * (never stored in it) that queries scan like any other, names split as {@link CatalogNames} does.
 */
final class InformationSchema {
    static final String NAME = CatalogNames.INFORMATION_SCHEMA;

    private static final ColumnSchema TABLE_CATALOG = text("table_catalog");
    private static final ColumnSchema TABLE_SCHEMA = text("table_schema");
    private static final ColumnSchema TABLE_NAME = text("table_name");

    private InformationSchema() { }

    /** Its tables' names. */
    static final List<String> TABLES = CatalogNames.INFORMATION_SCHEMA_TABLES;

    /**
     * Its table {@code name} (one of {@link #TABLES}) over {@code catalog}'s, named
     * {@code information_schema.<name>}; in {@code columns} a view's columns are {@code viewColumns}'
     * answer for it (its query's result columns), none for a view that no longer plans or that is
     * read while views' queries are planned for their columns.
     */
    static Table table(String name, Catalog catalog, Function<View, List<Field>> viewColumns) {
        List<Table> user = catalog.tables().stream().filter(t -> !CatalogNames.schemaOf(t.name()).equals(NAME))
                .sorted(Comparator.comparing(Table::name)).toList();
        List<View> views = catalog.views().stream().sorted(Comparator.comparing(View::name)).toList();
        return switch (name) {
            case "schemata" -> schemata(catalog, user, views);
            case "tables" -> tables(catalog, user, views);
            case "columns" -> columns(catalog, described(user, views, viewColumns));
            case "views" -> views(catalog, views);
            default -> throw new IllegalArgumentException("information_schema has no table " + name);
        };
    }

    /** The schemas {@code columns} lists: the tables', then the views' as their queries answer them. */
    private static List<TableSchema> described(List<Table> user, List<View> views, Function<View, List<Field>> viewColumns) {
        List<TableSchema> described = new ArrayList<>();
        user.forEach(t -> described.add(t.schema()));
        if (!DESCRIBING_VIEWS.get()) {
            DESCRIBING_VIEWS.set(true);
            try {
                views.forEach(v -> columnsOf(v, viewColumns).ifPresent(described::add));
            } finally {
                DESCRIBING_VIEWS.set(false);
            }
        }
        return described;
    }

    /**
     * Whether this thread is planning views' queries for their columns: a view that reads
     * {@code information_schema} would otherwise describe itself without end.
     */
    private static final ThreadLocal<Boolean> DESCRIBING_VIEWS = ThreadLocal.withInitial(() -> false);

    private static Optional<TableSchema> columnsOf(View v, Function<View, List<Field>> viewColumns) {
        List<Field> fields;
        try {
            fields = viewColumns.apply(v);
        } catch (RuntimeException broken) {
            return Optional.empty();
        }
        List<ColumnSchema> columns = new ArrayList<>();
        fields.forEach(f -> columns.add(new ColumnSchema(f.name(), f.type(), f.nullable())));
        return Optional.of(new TableSchema(v.name(), columns, List.of(), List.of()));
    }

    /** Each view's schema, name and query, as its creator wrote it. */
    private static Table views(Catalog catalog, List<View> views) {
        TableBuilder b = builder(catalog, "views", List.of(TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME,
                text("view_definition")));
        for (View v : views) {
            b.setString(0, CatalogNames.CATALOG);
            b.setString(1, CatalogNames.schemaOf(v.name()));
            b.setString(2, CatalogNames.tableOf(v.name()));
            b.setString(3, v.sql());
            b.endRow();
        }
        return b.build();
    }

    private static Table schemata(Catalog catalog, List<Table> user, List<View> views) {
        TableBuilder b = builder(catalog, "schemata", List.of(text("catalog_name"), text("schema_name")));
        TreeSet<String> schemas = new TreeSet<>(List.of(NAME));
        user.forEach(t -> schemas.add(CatalogNames.schemaOf(t.name())));
        views.forEach(v -> schemas.add(CatalogNames.schemaOf(v.name())));
        for (String schema : schemas) {
            b.setString(0, CatalogNames.CATALOG);
            b.setString(1, schema);
            b.endRow();
        }
        return b.build();
    }

    private static Table tables(Catalog catalog, List<Table> user, List<View> views) {
        TableBuilder b = builder(catalog, "tables",
                List.of(TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, text("table_type")));
        for (Table t : user) {
            tableRow(b, t.name(), "BASE TABLE");
        }
        for (View v : views) {
            tableRow(b, v.name(), "VIEW");
        }
        return b.build();
    }

    private static void tableRow(TableBuilder b, String name, String type) {
        b.setString(0, CatalogNames.CATALOG);
        b.setString(1, CatalogNames.schemaOf(name));
        b.setString(2, CatalogNames.tableOf(name));
        b.setString(3, type);
        b.endRow();
    }

    private static Table columns(Catalog catalog, List<TableSchema> described) {
        TableBuilder b = builder(catalog, "columns", List.of(TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME,
                text("column_name"),
                new ColumnSchema("ordinal_position", DataType.INTEGER, false), text("data_type"), text("is_nullable"),
                new ColumnSchema("character_maximum_length", DataType.INTEGER, true),
                new ColumnSchema("numeric_precision", DataType.INTEGER, true),
                new ColumnSchema("numeric_scale", DataType.INTEGER, true)));
        for (TableSchema t : described) {
            List<ColumnSchema> columns = t.columns();
            for (int c = 0; c < columns.size(); c++) {
                ColumnSchema column = columns.get(c);
                DataType type = column.type();
                b.setString(0, CatalogNames.CATALOG);
                b.setString(1, CatalogNames.schemaOf(t.name()));
                b.setString(2, CatalogNames.tableOf(t.name()));
                b.setString(3, column.name());
                b.setLong(4, c + 1);
                b.setString(5, type.kind().name());
                b.setString(6, column.nullable() ? "YES" : "NO");
                setOrNull(b, 7, type.kind() == DataType.Kind.VARCHAR && type.precision() > 0 ? type.precision() : -1);
                setOrNull(b, 8, type.kind() == DataType.Kind.DECIMAL ? type.precision() : -1);
                setOrNull(b, 9, type.kind() == DataType.Kind.DECIMAL ? type.scale() : -1);
                b.endRow();
            }
        }
        return b.build();
    }

    private static void setOrNull(TableBuilder b, int column, int value) {
        if (value < 0) {
            b.setNull(column);
        } else {
            b.setLong(column, value);
        }
    }

    private static TableBuilder builder(Catalog catalog, String name, List<ColumnSchema> columns) {
        return new TableBuilder(new TableSchema(NAME + "." + name, columns, List.of(), List.of()), catalog);
    }

    private static ColumnSchema text(String name) {
        return new ColumnSchema(name, DataType.VARCHAR, false);
    }

}
