package dev.starling.difftest;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A query answer with {@link Values#normalize normalized} values: column names and rows. */
public record ResultRows(List<String> columns, List<List<Object>> rows) {

    public static ResultRows of(QueryResult result) {
        List<List<Object>> rows = new ArrayList<>(result.rows().size());
        for (List<Object> row : result.rows()) {
            rows.add(normalized(row.toArray()));
        }
        return new ResultRows(result.fields().stream().map(Field::name).toList(), rows);
    }

    /** Runs {@code sql} on DuckDB and reads every row. */
    public static ResultRows query(Connection duck, String sql) throws SQLException {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            int n = meta.getColumnCount();
            List<String> columns = new ArrayList<>(n);
            for (int c = 1; c <= n; c++) {
                columns.add(meta.getColumnLabel(c));
            }
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int c = 1; c <= n; c++) {
                    // java.sql.Date and Timestamp would pass through the JVM's time zone.
                    row[c - 1] = switch (meta.getColumnType(c)) {
                        case Types.DATE -> rs.getObject(c, LocalDate.class);
                        case Types.TIMESTAMP -> rs.getObject(c, LocalDateTime.class);
                        default -> rs.getObject(c);
                    };
                }
                rows.add(normalized(row));
            }
            return new ResultRows(columns, rows);
        }
    }

    private static List<Object> normalized(Object[] row) {
        for (int i = 0; i < row.length; i++) {
            row[i] = Values.normalize(row[i]);
        }
        return Arrays.asList(row); // NULLs allowed, unlike List.of
    }
}
