package dev.starling.storage.load;

/**
 * A load file that cannot be loaded, with where: for example
 * {@code lineitem.tbl line 17, column 5 (l_quantity): 'abc' is not a DECIMAL(15,2)}.
 * Nothing of the load was committed.
 */
public final class LoadException extends RuntimeException {
    private final String source;
    private final long line;
    private final int column;
    private final String columnName;

    /**
     * @param column     1-based field number, or 0 when the problem is the whole line
     * @param columnName the table column of that field, or {@code null} when there is none
     */
    public LoadException(String source, long line, int column, String columnName, String problem) {
        super(source + " line " + line
                + (column > 0 ? ", column " + column + (columnName != null ? " (" + columnName + ")" : "") : "")
                + ": " + problem);
        this.source = source;
        this.line = line;
        this.column = column;
        this.columnName = columnName;
    }

    public String source() {
        return source;
    }

    public long line() {
        return line;
    }

    public int column() {
        return column;
    }

    public String columnName() {
        return columnName;
    }
}
