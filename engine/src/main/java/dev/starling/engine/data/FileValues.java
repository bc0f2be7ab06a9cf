package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;

/**
 * What a loaded file's column holds, as far as which table columns take it (values are then
 * converted as an assignment does): numbers go into numeric columns, strings into VARCHAR, dates
 * into DATE, booleans into BOOLEAN. The Arrow and the Parquet readers say it the same way.
 */
enum FileValues {
    NUMBERS, STRINGS, DATES, BOOLEANS;

    /** Whether a table column of {@code kind} takes them. */
    boolean fit(DataType.Kind kind) {
        return switch (this) {
            case NUMBERS -> kind == DataType.Kind.INTEGER || kind == DataType.Kind.BIGINT
                    || kind == DataType.Kind.DECIMAL || kind == DataType.Kind.DOUBLE;
            case STRINGS -> kind == DataType.Kind.VARCHAR;
            case DATES -> kind == DataType.Kind.DATE;
            case BOOLEANS -> kind == DataType.Kind.BOOLEAN;
        };
    }

    /**
     * The refusal of file {@code named}'s column number {@code c} (named {@code field}), which holds
     * {@code holds}, for table column {@code column}: said without any of the file's values.
     */
    static StarlingSqlException refused(String named, int c, String field, String holds, ColumnSchema column) {
        return new StarlingSqlException(named + ": its column " + (c + 1) + " (" + field + ") holds " + holds
                + ", which cannot go into " + column.type() + " column " + column.name());
    }
}
