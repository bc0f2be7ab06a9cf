package dev.starling.server.flight;

import dev.starling.exec.ArrowBatches;
import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.Table;
import java.nio.charset.StandardCharsets;
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
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The catalog as Flight SQL's metadata calls describe it: one catalog, {@value #CATALOG}; a
 * table named {@code ssb.lineorder} is table {@code lineorder} of schema {@code ssb}, an
 * unqualified one belongs to the empty schema; every table is of type TABLE.
 */
final class CatalogMetadata {
    static final String CATALOG = "starling";
    static final String TABLE_TYPE = "TABLE";

    private final Catalog catalog;
    private final BufferAllocator allocator;

    CatalogMetadata(Catalog catalog, BufferAllocator allocator) {
        this.catalog = catalog;
        this.allocator = allocator;
    }

    void catalogs(ServerStreamListener listener) {
        send(Schemas.GET_CATALOGS_SCHEMA, listener, List.<String[]>of(new String[] {CATALOG}));
    }

    void tableTypes(ServerStreamListener listener) {
        send(Schemas.GET_TABLE_TYPES_SCHEMA, listener, List.<String[]>of(new String[] {TABLE_TYPE}));
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
        send(Schemas.GET_SCHEMAS_SCHEMA, listener, names.stream().map(n -> new String[] {CATALOG, n}).toList());
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
        try (VectorSchemaRoot root = VectorSchemaRoot.create(
                withSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA, allocator)) {
            root.allocateNew();
            for (int r = 0; r < matching.size(); r++) {
                Table t = matching.get(r);
                setString(root, 0, r, CATALOG);
                setString(root, 1, r, schemaOf(t.name()));
                setString(root, 2, r, tableOf(t.name()));
                setString(root, 3, r, TABLE_TYPE);
                if (withSchema) {
                    ((VarBinaryVector) root.getVector(4)).setSafe(r, ArrowBatches.schema(fields(t)).serializeAsMessage());
                }
            }
            root.setRowCount(matching.size());
            listener.start(root);
            listener.putNext();
            listener.completed();
        }
    }

    private static List<Field> fields(Table t) {
        List<Field> out = new ArrayList<>();
        for (ColumnSchema c : t.schema().columns()) {
            out.add(new Field(c.name(), c.type(), c.nullable()));
        }
        return out;
    }

    /** Sends rows of strings (one array per row) in a root of {@code schema}. */
    private void send(org.apache.arrow.vector.types.pojo.Schema schema, ServerStreamListener listener, List<String[]> rows) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            for (int r = 0; r < rows.size(); r++) {
                for (int c = 0; c < rows.get(r).length; c++) {
                    setString(root, c, r, rows.get(r)[c]);
                }
            }
            root.setRowCount(rows.size());
            listener.start(root);
            listener.putNext();
            listener.completed();
        }
    }

    private static void setString(VectorSchemaRoot root, int column, int row, String value) {
        ((VarCharVector) root.getVector(column)).setSafe(row, value.getBytes(StandardCharsets.UTF_8));
    }

    static String schemaOf(String tableName) {
        int dot = tableName.lastIndexOf('.');
        return dot < 0 ? "" : tableName.substring(0, dot);
    }

    static String tableOf(String tableName) {
        return tableName.substring(tableName.lastIndexOf('.') + 1);
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
