package dev.starling.engine.data;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * A query's rows as CSV in the form LOAD reads back (RFC 4180): a header of the column names, then
 * a line a row, fields separated by commas; strings always in double quotes (a quote written twice),
 * so that an empty string differs from NULL, which is an empty unquoted field; numbers, dates
 * (yyyy-MM-dd) and booleans as they print.
 */
final class CsvResultFile implements ResultFile {
    private final BufferedWriter out;
    private long rows;

    CsvResultFile(Path file) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    @Override
    public void start(List<Field> fields) {
        StringBuilder header = new StringBuilder();
        for (Field f : fields) {
            (header.isEmpty() ? header : header.append(',')).append(quoted(f.name()));
        }
        line(header);
    }

    @Override
    public void accept(Batch batch) {
        StringBuilder row = new StringBuilder();
        for (int r = 0; r < batch.rows(); r++) {
            row.setLength(0);
            for (int c = 0; c < batch.width(); c++) {
                if (c > 0) {
                    row.append(',');
                }
                Vector v = batch.column(c);
                if (!v.isNull(r)) {
                    row.append(field(v.type(), v.value(r)));
                }
            }
            line(row);
        }
        rows += batch.rows();
    }

    private static String field(DataType type, Object value) {
        return switch (type.kind()) {
            case VARCHAR -> quoted((String) value);
            case DECIMAL -> ((BigDecimal) value).toPlainString();
            case DATE -> ((LocalDate) value).toString();
            default -> value.toString();
        };
    }

    private static String quoted(String s) {
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private void line(CharSequence text) {
        try {
            out.append(text).append('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void finish() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
