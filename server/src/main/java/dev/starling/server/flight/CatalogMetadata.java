package dev.starling.server.flight;

import static dev.starling.storage.CatalogNames.CATALOG;
import static dev.starling.storage.CatalogNames.schemaOf;
import static dev.starling.storage.CatalogNames.tableOf;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.Table;
import dev.starling.storage.View;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The catalog as Flight SQL's metadata calls describe it, its names split as
 * {@link dev.starling.storage.CatalogNames} does: tables of type TABLE, views of type VIEW.
 */
final class CatalogMetadata {
    static final String TABLE_TYPE = "TABLE";
    static final String VIEW_TYPE = "VIEW";

    private final Catalog catalog;
    private final BufferAllocator allocator;
    /** A view's result columns, as its query plans now. */
    private final Function<View, List<Field>> viewFields;

    /** A table or a view as GetTables lists it: its catalog name, type and (when asked for) its columns. */
    private record Listed(String name, String type, Supplier<List<Field>> fields) { }

    CatalogMetadata(Catalog catalog, BufferAllocator allocator, Function<View, List<Field>> viewFields) {
        this.catalog = catalog;
        this.allocator = allocator;
        this.viewFields = viewFields;
    }

    void catalogs(ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_CATALOGS_SCHEMA, List.<Object[]>of(new Object[] {CATALOG}), allocator, listener);
    }

    void tableTypes(ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_TABLE_TYPES_SCHEMA,
                List.<Object[]>of(new Object[] {TABLE_TYPE}, new Object[] {VIEW_TYPE}), allocator, listener);
    }

    void schemas(CommandGetDbSchemas command, ServerStreamListener listener) {
        Pattern schemaPattern = command.hasDbSchemaFilterPattern() ? like(command.getDbSchemaFilterPattern()) : null;
        TreeSet<String> names = new TreeSet<>();
        if (!command.hasCatalog() || command.getCatalog().equals(CATALOG)) {
            List<String> all = new ArrayList<>(catalog.tables().stream().map(Table::name).toList());
            catalog.views().forEach(v -> all.add(v.name()));
            for (String name : all) {
                String schema = schemaOf(name);
                if (schemaPattern == null || schemaPattern.matcher(schema).matches()) {
                    names.add(schema);
                }
            }
        }
        MetadataRows.send(Schemas.GET_SCHEMAS_SCHEMA, names.stream().map(n -> new Object[] {CATALOG, n}).toList(),
                allocator, listener);
    }

    void tables(CommandGetTables command, ServerStreamListener listener) {
        Pattern schemaPattern = command.hasDbSchemaFilterPattern() ? like(command.getDbSchemaFilterPattern()) : null;
        Pattern tablePattern = command.hasTableNameFilterPattern() ? like(command.getTableNameFilterPattern()) : null;
        List<Listed> matching = new ArrayList<>();
        if (!command.hasCatalog() || command.getCatalog().equals(CATALOG)) {
            if (wanted(command, TABLE_TYPE)) {
                catalog.tables().forEach(t -> matching.add(new Listed(t.name(), TABLE_TYPE, () -> fields(t))));
            }
            if (wanted(command, VIEW_TYPE)) {
                catalog.views().forEach(v -> matching.add(new Listed(v.name(), VIEW_TYPE, () -> fieldsOf(v))));
            }
        }
        matching.removeIf(l -> (schemaPattern != null && !schemaPattern.matcher(schemaOf(l.name())).matches())
                || (tablePattern != null && !tablePattern.matcher(tableOf(l.name())).matches()));
        matching.sort(Comparator.comparing(Listed::name));
        boolean withSchema = command.getIncludeSchema();
        List<Object[]> rows = new ArrayList<>();
        for (Listed l : matching) {
            rows.add(withSchema
                    ? new Object[] {CATALOG, schemaOf(l.name()), tableOf(l.name()), l.type(),
                            ResultSchema.of(l.fields().get()).serializeAsMessage()}
                    : new Object[] {CATALOG, schemaOf(l.name()), tableOf(l.name()), l.type()});
        }
        MetadataRows.send(withSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA, rows,
                allocator, listener);
    }

    private static boolean wanted(CommandGetTables command, String type) {
        return command.getTableTypesCount() == 0 || command.getTableTypesList().contains(type);
    }

    /** A view's columns; none for a view that no longer plans (a table it reads was dropped). */
    private List<Field> fieldsOf(View v) {
        try {
            return viewFields.apply(v);
        } catch (RuntimeException broken) {
            return List.of();
        }
    }

    private static List<Field> fields(Table t) {
        List<Field> out = new ArrayList<>();
        for (ColumnSchema c : t.schema().columns()) {
            out.add(new Field(c.name(), c.type(), c.nullable()));
        }
        return out;
    }


    /** A SQL LIKE pattern ({@code %}, {@code _}, backslash escapes) as a regular expression. */
    static Pattern like(String pattern) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == '\\' && i + 1 < pattern.length()) {
                re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (ch == '%') {
                re.append(".*");
            } else if (ch == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
