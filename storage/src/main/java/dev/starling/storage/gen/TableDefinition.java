package dev.starling.storage.gen;

import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * How generated rows of type {@code E} become a table: each column with the accessor that gives its
 * value, the primary key and the foreign keys. Table names are unqualified here and qualified with
 * a schema when the table is created, so one definition serves {@code lineitem} and {@code tpch.lineitem}.
 * Every column is NOT NULL.
 */
record TableDefinition<E>(String name, List<Column<E>> columns, List<String> primaryKey, List<ForeignKey> foreignKeys) {

    /** One column and how to set it from a row. */
    record Column<E>(String name, DataType type, Setter<E> setter) { }

    @FunctionalInterface
    interface Setter<E> {
        void set(TableBuilder builder, int column, E row);
    }

    static <E> Builder<E> named(String name) {
        return new Builder<>(name);
    }

    /** {@code table} in {@code schema}; the empty schema leaves it unqualified. */
    static String qualify(String schema, String table) {
        return schema.isEmpty() ? table : schema + "." + table;
    }

    TableSchema schema(String schema) {
        List<ColumnSchema> cols = columns.stream().map(c -> new ColumnSchema(c.name(), c.type(), false)).toList();
        List<ForeignKey> fks = foreignKeys.stream()
                .map(fk -> new ForeignKey(fk.columns(), qualify(schema, fk.referencedTable()), fk.referencedColumns()))
                .toList();
        return new TableSchema(qualify(schema, name), cols, primaryKey, fks);
    }

    void append(TableBuilder builder, E row) {
        for (int i = 0; i < columns.size(); i++) {
            columns.get(i).setter().set(builder, i, row);
        }
        builder.endRow();
    }

    static final class Builder<E> {
        private final String name;
        private final List<Column<E>> columns = new ArrayList<>();
        private final List<ForeignKey> foreignKeys = new ArrayList<>();
        private List<String> primaryKey = List.of();

        private Builder(String name) {
            this.name = name;
        }

        Builder<E> integer(String column, ToLongFunction<E> value) {
            return number(column, DataType.INTEGER, value);
        }

        Builder<E> bigint(String column, ToLongFunction<E> value) {
            return number(column, DataType.BIGINT, value);
        }

        /** A DECIMAL given as its unscaled value (cents for scale 2), so no digit is ever rounded away. */
        Builder<E> decimal(String column, int precision, int scale, ToLongFunction<E> unscaled) {
            return number(column, DataType.decimal(precision, scale), unscaled);
        }

        /** A DATE given as days since 1970-01-01. */
        Builder<E> date(String column, ToLongFunction<E> epochDay) {
            return number(column, DataType.DATE, epochDay);
        }

        Builder<E> varchar(String column, int length, Function<E, String> value) {
            columns.add(new Column<>(column, DataType.varchar(length), (b, i, row) -> b.setString(i, value.apply(row))));
            return this;
        }

        private Builder<E> number(String column, DataType type, ToLongFunction<E> value) {
            columns.add(new Column<>(column, type, (b, i, row) -> b.setLong(i, value.applyAsLong(row))));
            return this;
        }

        Builder<E> primaryKey(String... key) {
            primaryKey = List.of(key);
            return this;
        }

        Builder<E> foreignKey(String column, String table, String referencedColumn) {
            foreignKeys.add(ForeignKey.of(column, table, referencedColumn));
            return this;
        }

        Builder<E> foreignKey(List<String> columns, String table, List<String> referencedColumns) {
            foreignKeys.add(new ForeignKey(columns, table, referencedColumns));
            return this;
        }

        TableDefinition<E> build() {
            return new TableDefinition<>(name, List.copyOf(columns), primaryKey, List.copyOf(foreignKeys));
        }
    }
}
