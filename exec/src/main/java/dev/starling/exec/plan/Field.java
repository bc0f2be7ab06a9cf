package dev.starling.exec.plan;

import dev.starling.storage.DataType;
import java.util.List;

/** A named, typed output column of a plan node. */
public record Field(String name, DataType type, boolean nullable) {
    /** The name as EXPLAIN shows it: a key's dense code as {@code name (code)}, a table's row id as {@code table (row id)}. */
    public String label() {
        if (name.endsWith("$rowid")) {
            return name.substring(0, name.length() - "$rowid".length()) + " (row id)";
        }
        return name.endsWith("$code") ? name.substring(0, name.length() - "$code".length()) + " (code)" : name;
    }

    /** The labels of {@code fields}, in order. */
    public static List<String> labels(List<Field> fields) {
        return fields.stream().map(Field::label).toList();
    }
}
