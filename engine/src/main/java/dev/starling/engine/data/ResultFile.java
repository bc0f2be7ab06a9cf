package dev.starling.engine.data;

import dev.starling.exec.BatchSink;
import java.io.IOException;
import java.nio.file.Path;

/** A query's rows written to a file by COPY, as they are produced; closing it closes the file. */
interface ResultFile extends BatchSink, AutoCloseable {
    /** The rows written so far. */
    long rows();

    @Override
    void close() throws IOException;

    /**
     * A writer of {@code format} ({@code arrow}, {@code arrow stream}, {@code csv} or
     * {@code parquet}; null: as {@code named}'s extension, {@code .arrow}, {@code .arrows},
     * {@code .csv} or {@code .parquet}, says) into {@code file}.
     */
    static ResultFile open(Path file, String format, Path named) throws IOException {
        String kind = format != null ? format : FileFormats.of(named);
        return switch (kind) {
            case "arrow" -> new ArrowResultFile(file, false);
            case "arrow stream" -> new ArrowResultFile(file, true);
            case "csv" -> new CsvResultFile(file);
            case "parquet" -> new ParquetResultFile(file);
            default -> throw new IllegalArgumentException("cannot tell the format to write " + named
                    + " in: give FORMAT ARROW, ARROW STREAM, CSV or PARQUET, or name it .arrow, .arrows, .csv "
                    + "or .parquet");
        };
    }

}
