package dev.starling.server.flight;

import static dev.starling.storage.CatalogNames.CATALOG;
import static dev.starling.storage.CatalogNames.schemaOf;
import static dev.starling.storage.CatalogNames.tableOf;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.Table;
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
 * {@link dev.starling.storage.CatalogNames} does; every table is of type TABLE.
 */
final class CatalogMetadata {
    static final String TABLE_TYPE = "TABLE";

    private final Catalog catalog;
    private final BufferAllocator allocator;

    CatalogMetadata(Catalog catalog, BufferAllocator allocator) {
        this.catalog = catalog;
        this.allocator = allocator;
    }

    void catalogs(ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_CATALOGS_SCHEMA, List.<Object[]>of(new Object[] {CATALOG}), allocator, listener);
    }

    void tableTypes(ServerStreamListener listener) {
        MetadataRows.send(Schemas.GET_TABLE_TYPES_SCHEMA, List.<Object[]>of(new Object[] {TABLE_TYPE}), allocator, listener);
    }

    void schemas(CommandGetDbSchemas command, ServerStreamListener listener) {
        Pattern schemaPattern = command.hasDbSchemaFilterPattern() ? like(command.getDbSchemaFilterPattern()) : null;
        TreeSet<String> names = new TreeSet<>();
        if (!command.hasCatalog() || command.getCatalog().equals(CATALOG)) {
            for (Table t : catalog.tables()) {
                String schema = schemaOf(t.name());
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
        boolean typeMatches = command.getTableTypesCount() == 0 || command.getTableTypesList().contains(TABLE_TYPE);
        List<Table> matching = new ArrayList<>();
        if ((!command.hasCatalog() || command.getCatalog().equals(CATALOG)) && typeMatches) {
            for (Table t : catalog.tables()) {
                if ((schemaPattern == null || schemaPattern.matcher(schemaOf(t.name())).matches())
                        && (tablePattern == null || tablePattern.matcher(tableOf(t.name())).matches())) {
                    matching.add(t);
                }
            }
        }
        matching.sort(Comparator.comparing(Table::name));
        boolean withSchema = command.getIncludeSchema();
        List<Object[]> rows = new ArrayList<>();
        for (Table t : matching) {
            rows.add(withSchema
                    ? new Object[] {CATALOG, schemaOf(t.name()), tableOf(t.name()), TABLE_TYPE,
                            ResultSchema.of(fields(t)).serializeAsMessage()}
                    : new Object[] {CATALOG, schemaOf(t.name()), tableOf(t.name()), TABLE_TYPE});
        }
        MetadataRows.send(withSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA, rows,
                allocator, listener);
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
