package dev.starling.bench;

import dev.starling.difftest.ResultRows;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

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
    public long run(String sql) throws SQLException {
        return JdbcResults.readAll(duck, sql);
    }

    @Override
    public ResultRows answer(String sql) throws SQLException {
        return ResultRows.query(duck, sql);
    }

    @Override
    public void close() throws SQLException {
        duck.close();
    }
}
