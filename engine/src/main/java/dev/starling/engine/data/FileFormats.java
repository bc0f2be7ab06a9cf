package dev.starling.engine.data;

import java.nio.file.Path;
import java.util.Locale;

/** The data format a file's name says, for LOAD and COPY, by the names their FORMAT clauses use. */
final class FileFormats {
    private FileFormats() { }

    /** {@code arrow} (.arrow), {@code arrow stream} (.arrows), {@code parquet}, {@code csv} or {@code tbl}; empty for any other name. */
    static String of(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".arrow") ? "arrow" : name.endsWith(".arrows") ? "arrow stream"
                : name.endsWith(".parquet") ? "parquet" : name.endsWith(".csv") ? "csv" : name.endsWith(".tbl") ? "tbl" : "";
    }
}
