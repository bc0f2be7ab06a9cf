package dev.starling.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** DuckDB in process through JDBC; every result value is read, as Starling's are. */
final class DuckDbRunner implements QueryRunner {
    private final Connection duck;

    DuckDbRunner() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    Connection connection() {
        return duck;
    }

    @Override
    public int run(String sql) throws Exception {
        int rows = 0;
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                rows++;
                for (int c = 1; c <= columns; c++) {
                    rs.getObject(c);
                }
            }
        }
        return rows;
    }

    @Override
    public void close() throws SQLException {
        duck.close();
    }
}
