package dev.starling.sqllogic;

import java.util.List;

/** One record of a {@code .slt} file (the format is described in {@code sqllogic/README.md}). */
sealed interface SqlLogicRecord {

    /** The file line the record starts on, for test names and messages. */
    int line();

    /** A line of the file with its 1-based number. */
    record Line(int number, String text) { }

    /**
     * Creates a table and loads rows into it.
     *
     * @param declaration the table's name, columns and keys
     * @param rows        one {@link LiteralRow} per line
     */
    record Table(int line, String declaration, List<Line> rows) implements SqlLogicRecord { }

    /**
     * A query and its expected rows.
     *
     * @param expected       one {@link LiteralRow} per line
     * @param noDuckDbReason why the answer is not compared with DuckDB's, or {@code null} when it is
     */
    record Query(int line, String sql, List<Line> expected, String noDuckDbReason) implements SqlLogicRecord { }

    /** A query that must fail with a message containing {@code messageFragment}. */
    record Error(int line, String sql, String messageFragment) implements SqlLogicRecord { }
}
