package dev.starling.exec.expr;

import dev.starling.storage.DataType;

public record ColumnRef(int index, DataType type, boolean nullable) implements Expr {
    @Override
    public String toString() {
        return "$" + index;
    }
}
