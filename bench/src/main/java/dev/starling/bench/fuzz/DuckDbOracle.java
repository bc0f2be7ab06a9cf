package dev.starling.bench.fuzz;

import dev.starling.bench.DuckDbMirror;
import dev.starling.difftest.ResultRows;
import dev.starling.storage.Catalog;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * DuckDB as the oracle: an in-memory database holding a copy of the catalog's tables. A query that
 * meets one of DuckDB's own fatal errors invalidates its database, and every later query would
 * fail with "database has been invalidated"; the oracle then opens a fresh copy and asks again, so
 * one DuckDB bug costs one query of a run, not the rest of it.
 */
public final class DuckDbOracle implements Engine, AutoCloseable {
    private final Catalog catalog;
    private Connection duck;

    public DuckDbOracle(Catalog catalog) throws SQLException {
        this.catalog = catalog;
        this.duck = open();
    }

    private Connection open() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        DuckDbMirror.copy(catalog, c);
        return c;
    }

    @Override
    public String name() {
        return "DuckDB";
    }

    @Override
    public ResultRows answer(String sql) throws Exception {
        try {
            return ResultRows.query(duck, sql);
        } catch (SQLException e) {
            if (e.getMessage() == null || !e.getMessage().contains("database has been invalidated")) {
                throw e;
            }
            duck.close();
            duck = open();
            return ResultRows.query(duck, sql);
        }
    }

    @Override
    public void close() throws SQLException {
        duck.close();
    }
}
