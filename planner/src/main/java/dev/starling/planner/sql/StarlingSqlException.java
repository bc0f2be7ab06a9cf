package dev.starling.planner.sql;

/**
 * A query Starling cannot run: a syntax error, an unknown table or column, a type error, or SQL
 * that Starling does not support. {@link #line()} and {@link #column()} are 1-based and 0 when the
 * error has no position in the query text.
 */
public final class StarlingSqlException extends RuntimeException {
    private final int line;
    private final int column;

    public StarlingSqlException(String message) {
        super(message);
        this.line = 0;
        this.column = 0;
    }

    public StarlingSqlException(String message, int line, int column, Throwable cause) {
        super(line > 0 ? "line " + line + ", column " + column + ": " + message : message, cause);
        this.line = line;
        this.column = column;
    }

    /** SQL that Starling does not support, named by {@code construct}. */
    public static StarlingSqlException unsupported(String construct) {
        return new StarlingSqlException("unsupported SQL: " + construct);
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
