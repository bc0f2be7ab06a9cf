package dev.starling.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Runs a query through JDBC and reads every value of its result as a Java object, as a client would. */
final class JdbcResults {
    private JdbcResults() {
    }

    /** The number of rows read. */
    static long readAll(Connection connection, String sql) throws SQLException {
        long rows = 0;
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
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
}
