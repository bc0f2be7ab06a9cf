package dev.starling.bench;

/** An engine under test: runs a query and reads its whole result; returns the row count. */
interface QueryRunner extends AutoCloseable {
    long run(String sql) throws Exception;

    @Override
    void close() throws java.sql.SQLException;
}
