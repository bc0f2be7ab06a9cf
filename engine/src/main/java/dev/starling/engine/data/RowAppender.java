package dev.starling.engine.data;

import dev.starling.storage.DataType;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;

/**
 * Appends query result rows to a table being built, converting each value to its column's type as
 * an assignment does (numbers rounded half away from zero to the column's scale, strings of dates
 * read as dates); columns the INSERT does not name get NULL.
 */
final class RowAppender {
    private final TableBuilder builder;
    private final TableSchema schema;
    /** For each result column, the table column it goes to. */
    private final int[] target;
    private final boolean[] named;
    /** The table column the last row that failed failed at, -1 before any. */
    private int failedColumn = -1;

    RowAppender(TableBuilder builder, int[] target) {
        this.builder = builder;
        this.schema = builder.schema();
        this.target = target;
        this.named = new boolean[schema.columns().size()];
        for (int t : target) {
            named[t] = true;
        }
    }

    void append(Object[] values) {
        int i = 0;
        try {
            for (; i < values.length; i++) {
                set(target[i], values[i]);
            }
            for (int c = 0; c < named.length; c++) {
                if (!named[c]) {
                    builder.setNull(c);
                }
            }
            builder.endRow();
        } catch (RuntimeException e) {
            failedColumn = i < values.length ? target[i] : -1;
            builder.abandonRow();
            throw e;
        }
    }

    /** The table column the last row that failed failed at (-1: at the row's end, a key check). */
    int failedColumn() {
        return failedColumn;
    }

    private void set(int col, Object v) {
        DataType type = schema.column(col).type();
        if (v == null) {
            builder.setNull(col);
            return;
        }
        switch (type.kind()) {
            case INTEGER, BIGINT -> {
                long x = isWhole(v) ? ((Number) v).longValue()
                        : decimal(v, col).setScale(0, RoundingMode.HALF_UP).longValueExact();
                if (type.kind() == DataType.Kind.INTEGER && (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE)) {
                    throw new ArithmeticException(x + " does not fit INTEGER column " + schema.column(col).name());
                }
                builder.setLong(col, x);
            }
            case DECIMAL -> builder.setLong(col, decimal(v, col).setScale(type.scale(), RoundingMode.HALF_UP)
                    .unscaledValue().longValueExact());
            case DOUBLE -> builder.setDouble(col, v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString()));
            case DATE -> builder.setLong(col, (v instanceof LocalDate d ? d : LocalDate.parse(v.toString())).toEpochDay());
            case BOOLEAN -> builder.setBoolean(col, v instanceof Boolean b ? b : Boolean.parseBoolean(v.toString()));
            case VARCHAR -> builder.setString(col, v.toString());
        }
    }

    /** Whether {@code v} is a whole number that a long holds, which needs no decimal arithmetic. */
    private static boolean isWhole(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    private BigDecimal decimal(Object v, int col) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (isWhole(v)) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Number || v instanceof String) {
            try {
                return new BigDecimal(v.toString());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + v + "' is not a number for column " + schema.column(col).name());
            }
        }
        throw new IllegalArgumentException(v.getClass().getSimpleName() + " value " + v + " cannot go into "
                + schema.column(col).type() + " column " + schema.column(col).name());
    }
}
