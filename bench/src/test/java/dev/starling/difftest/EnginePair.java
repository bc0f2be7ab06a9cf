package dev.starling.difftest;

import static org.junit.jupiter.api.Assertions.fail;

import dev.starling.bench.DuckDbMirror;
import dev.starling.engine.Starling;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * Starling and an in-memory DuckDB holding the same tables, so one SQL text can be answered by
 * both and the answers compared. Tables live in Starling's catalog; {@link #mirror} copies them.
 */
public final class EnginePair implements AutoCloseable {
    private final Starling starling;
    private final Connection duck;

    private EnginePair(Starling starling, Connection duck) {
        this.starling = starling;
        this.duck = duck;
    }

    public static EnginePair open() throws SQLException {
        Starling starling = Starling.inMemory();
        try {
            return new EnginePair(starling, DriverManager.getConnection("jdbc:duckdb:"));
        } catch (SQLException | RuntimeException e) {
            starling.close();
            throw e;
        }
    }

    public Starling starling() {
        return starling;
    }

    public Connection duckDb() {
        return duck;
    }

    /** Copies every table of Starling's catalog into DuckDB. */
    public void mirror() throws SQLException {
        DuckDbMirror.copy(starling.catalog(), duck);
    }

    /** Copies one table of Starling's catalog into DuckDB. */
    public void mirror(String table) throws SQLException {
        DuckDbMirror.copy(starling.catalog(), table, duck);
    }

    /** Runs {@code sql} on both engines and fails, showing the first differing rows, unless the answers agree. */
    public ResultRows assertSameAnswer(String sql) throws SQLException {
        ResultRows expected = ResultRows.query(duck, sql);
        ResultRows actual = ResultRows.of(starling.query(sql));
        String difference = ResultComparator.difference("DuckDB", expected, "Starling", actual,
                RowOrder.of(sql, actual.columns()));
        if (difference != null) {
            fail(difference + "query:\n" + sql);
        }
        return actual;
    }

    @Override
    public void close() throws SQLException {
        try {
            duck.close();
        } finally {
            starling.close();
        }
    }
}
