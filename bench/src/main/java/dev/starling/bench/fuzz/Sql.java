package dev.starling.bench.fuzz;

import dev.starling.storage.DataType;

/**
 * A generated SQL expression: its text, the kind of value it gives, whether it may be NULL, and
 * the column it reads unchanged (null when it computes), whose samples make fitting literals.
 */
record Sql(String text, DataType.Kind kind, boolean nullable, FuzzColumn column) {
    static Sql of(String text, DataType.Kind kind, boolean nullable) {
        return new Sql(text, kind, nullable, null);
    }

    boolean integral() {
        return kind == DataType.Kind.INTEGER || kind == DataType.Kind.BIGINT;
    }

    @Override
    public String toString() {
        return text;
    }
}
