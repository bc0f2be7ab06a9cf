package dev.starling.exec.expr;

import dev.starling.storage.DataType;

/**
 * A constant: Long for INTEGER, BIGINT, DATE (days) and DECIMAL (scaled by the type's scale),
 * Double for DOUBLE, Boolean, String, or null for a typed NULL.
 */
public record Literal(Object value, DataType type) implements Expr {
    public Literal {
        boolean ok = switch (type.kind()) {
            case INTEGER, BIGINT, DATE, DECIMAL -> value == null || value instanceof Long;
            case DOUBLE -> value == null || value instanceof Double;
            case BOOLEAN -> value == null || value instanceof Boolean;
            case VARCHAR -> value == null || value instanceof String;
        };
        if (!ok) {
            throw new IllegalArgumentException("literal " + value + " (" + value.getClass().getSimpleName()
                    + ") does not match type " + type);
        }
    }

    @Override
    public boolean nullable() {
        return value == null;
    }

    @Override
    public String toString() {
        return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
    }
}
