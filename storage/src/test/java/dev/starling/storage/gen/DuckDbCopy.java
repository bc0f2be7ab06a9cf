package dev.starling.storage.gen;

import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import dev.starling.storage.TableRows;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Collectors;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/** Copies the tables of a catalog (unqualified names) into DuckDB, to run query texts on the generated data. */
final class DuckDbCopy {
    private DuckDbCopy() { }

    static void copy(Catalog catalog, Connection duck) throws SQLException {
        for (Table table : catalog.tables()) {
            String columns = table.columns().stream()
                    .map(c -> c.name() + " " + c.type() + " NOT NULL")
                    .collect(Collectors.joining(", "));
            try (Statement s = duck.createStatement()) {
                s.execute("CREATE TABLE " + table.name() + " (" + columns + ")");
            }
            try (DuckDBAppender appender = duck.unwrap(DuckDBConnection.class).createAppender(table.name())) {
                for (List<Object> row : TableRows.of(table, catalog)) {
                    appender.beginRow();
                    for (int c = 0; c < row.size(); c++) {
                        append(appender, table.column(c), row.get(c));
                    }
                    appender.endRow();
                }
            }
        }
    }

    private static void append(DuckDBAppender appender, Column column, Object value) throws SQLException {
        switch (column.type().kind()) {
            case INTEGER -> appender.append(((Long) value).intValue());
            case BIGINT -> appender.append((Long) value);
            case DECIMAL -> appender.append(BigDecimal.valueOf((Long) value, column.type().scale()));
            case DATE -> appender.append(LocalDate.ofEpochDay((Long) value));
            case VARCHAR -> appender.append((String) value);
            default -> throw new IllegalArgumentException("generated tables have no " + column.type() + " column");
        }
    }
}
