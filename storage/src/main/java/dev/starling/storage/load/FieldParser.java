package dev.starling.storage.load;

import dev.starling.storage.DataType;
import dev.starling.storage.TableBuilder;

/** Parses a field's text (a range of a char array) into one column of the row being built. */
@FunctionalInterface
interface FieldParser {

    void parse(char[] text, int start, int end, TableBuilder out, int column);

    static FieldParser of(DataType type) {
        return switch (type.kind()) {
            case INTEGER -> (t, s, e, out, c) -> out.setLong(c, FieldValues.integer(t, s, e, Integer.MIN_VALUE,
                    Integer.MAX_VALUE, type));
            case BIGINT -> (t, s, e, out, c) -> out.setLong(c, FieldValues.integer(t, s, e, Long.MIN_VALUE,
                    Long.MAX_VALUE, type));
            case DOUBLE -> (t, s, e, out, c) -> out.setDouble(c, FieldValues.doubleValue(t, s, e));
            case DECIMAL -> (t, s, e, out, c) -> out.setLong(c, FieldValues.decimal(t, s, e, type));
            case DATE -> (t, s, e, out, c) -> out.setLong(c, FieldValues.date(t, s, e));
            case BOOLEAN -> (t, s, e, out, c) -> out.setBoolean(c, FieldValues.bool(t, s, e));
            case VARCHAR -> (t, s, e, out, c) -> out.setString(c, new String(t, s, e - s));
        };
    }
}
