package dev.starling.bench;

/** An engine under test: runs a query and reads its whole result; returns the row count. */
interface QueryRunner extends AutoCloseable {
    int run(String sql) throws Exception;

    @Override
    void close() throws java.sql.SQLException;
}
