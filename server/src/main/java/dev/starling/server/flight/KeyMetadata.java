package dev.starling.server.flight;

import static dev.starling.storage.CatalogNames.CATALOG;

import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Primary and foreign keys as Flight SQL's GetPrimaryKeys, GetImportedKeys and GetExportedKeys
 * describe them (so JDBC tools can draw the schema): rows in the columns of Flight SQL's own
 * schemas, keys in their declared column order.
 */
final class KeyMetadata {
    /** The spec's code for NO ACTION: Starling refuses to drop a referenced table instead. */
    private static final int NO_ACTION = 3;

    private final Catalog catalog;
    private final BufferAllocator allocator;

    KeyMetadata(Catalog catalog, BufferAllocator allocator) {
        this.catalog = catalog;
        this.allocator = allocator;
    }

    void primaryKeys(String schema, String table, ServerStreamListener listener) {
        List<Object[]> rows = new ArrayList<>();
        catalog.table(qualified(schema, table)).ifPresent(t -> {
            List<String> key = t.schema().primaryKey();
            for (int i = 0; i < key.size(); i++) {
                rows.add(new Object[] {CATALOG, schemaOf(t), tableOf(t), key.get(i), i + 1, null});
            }
        });
        send(Schemas.GET_PRIMARY_KEYS_SCHEMA, rows, listener);
    }

    /** Foreign keys of {@code table}: what it imports. */
    void importedKeys(String schema, String table, ServerStreamListener listener) {
        String name = qualified(schema, table);
        send(Schemas.GET_IMPORTED_KEYS_SCHEMA, keyRows(t -> t.name().equals(name), fk -> true), listener);
    }

    /** Foreign keys that reference {@code table}: what it exports. */
    void exportedKeys(String schema, String table, ServerStreamListener listener) {
        String name = qualified(schema, table);
        send(Schemas.GET_EXPORTED_KEYS_SCHEMA, keyRows(t -> true, fk -> fk.referencedTable().equals(name)), listener);
    }

    private List<Object[]> keyRows(Predicate<Table> tables, Predicate<ForeignKey> keys) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : catalog.tables()) {
            if (!tables.test(t)) {
                continue;
            }
            for (ForeignKey fk : t.schema().foreignKeys()) {
                if (!keys.test(fk)) {
                    continue;
                }
                for (int i = 0; i < fk.columns().size(); i++) {
                    rows.add(new Object[] {CATALOG, CatalogNames.schemaOf(fk.referencedTable()),
                            CatalogNames.tableOf(fk.referencedTable()), fk.referencedColumns().get(i),
                            CATALOG, schemaOf(t), tableOf(t), fk.columns().get(i), i + 1,
                            null, null, NO_ACTION, NO_ACTION});
                }
            }
        }
        return rows;
    }

    private static String qualified(String schema, String table) {
        return schema == null || schema.isEmpty() ? table : schema + "." + table;
    }

    private static String schemaOf(Table t) {
        return CatalogNames.schemaOf(t.name());
    }

    private static String tableOf(Table t) {
        return CatalogNames.tableOf(t.name());
    }

    private void send(Schema schema, List<Object[]> rows, ServerStreamListener listener) {
        MetadataRows.send(schema, rows, allocator, listener);
    }
}
