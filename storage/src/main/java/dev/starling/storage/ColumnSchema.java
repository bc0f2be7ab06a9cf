package dev.starling.storage;

public record ColumnSchema(String name, DataType type, boolean nullable) {
    public ColumnSchema {
        name = name.toLowerCase(java.util.Locale.ROOT);
    }
}
