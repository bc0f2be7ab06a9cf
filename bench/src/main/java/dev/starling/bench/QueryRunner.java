package dev.starling.bench;

import dev.starling.difftest.ResultRows;

/** An engine under test: runs a query and reads its whole result. */
interface QueryRunner extends AutoCloseable {
    /** Runs {@code sql}, reading every value as a client would; the row count. */
    long run(String sql) throws Exception;

    /** Runs {@code sql} and keeps its answer, to compare with another engine's. */
    ResultRows answer(String sql) throws Exception;

    @Override
    void close() throws java.sql.SQLException;
}
