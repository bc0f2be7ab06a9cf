package dev.starling.engine.data;

import dev.starling.exec.ArrowBatches;
import dev.starling.exec.ArrowValues;
import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.InvalidArrowFileException;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow record batches appended to a table being built: an Arrow IPC file's, in the random-access
 * file format or the stream format (as COPY and pyarrow write them; the file format's magic tells
 * them apart), or a client's upload. Their columns go by position, as many as the table has, each
 * value converted to its column's type as an INSERT converts a query's ({@link RowAppender}:
 * numbers to the column's scale, NOT NULL, VARCHAR(n), DECIMAL(p,s) and key checks the same).
 */
final class ArrowRows {
    /** The bytes the Arrow IPC file format starts with; the stream format has none. */
    private static final String FILE_MAGIC = "ARROW1";

    private ArrowRows() { }

    /**
     * Appends {@code file}'s rows (named {@code named} in errors) to {@code out}, telling
     * {@code progress} the rows appended so far after each record batch.
     */
    static void appendFile(Path file, Path named, TableBuilder out, LongConsumer progress) {
        try (BufferAllocator allocator = new RootAllocator();
             FileChannel channel = FileChannel.open(file);
             ArrowReader reader = reader(channel, allocator, named)) {
            append(new RecordBatches() {
                @Override
                public VectorSchemaRoot root() {
                    try {
                        return reader.getVectorSchemaRoot();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public boolean next() {
                    try {
                        return reader.loadNextBatch();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }, named.toString(), out, progress);
        } catch (InvalidArrowFileException e) {
            throw notArrow(named, e);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("cannot read " + named + ": " + e.getCause().getMessage(), e.getCause());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + named + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends the rows of {@code in} (named {@code named} in errors) to {@code out}, telling
     * {@code progress} the rows appended so far after each record batch.
     */
    static void append(RecordBatches in, String named, TableBuilder out, LongConsumer progress) {
        int columns = out.schema().columns().size();
        VectorSchemaRoot root = in.root();
        int fields = root.getSchema().getFields().size();
        if (fields != columns) {
            throw new StarlingSqlException(named + " has " + fields + " columns, table " + out.schema().name() + " "
                    + columns);
        }
        for (int c = 0; c < columns; c++) {
            checkType(named, root.getSchema().getFields().get(c), c, out.schema().column(c));
        }
        RowAppender appender = new RowAppender(out, IntStream.range(0, columns).toArray());
        long rows = 0;
        Object[] row = new Object[columns];
        while (in.next()) {
            List<FieldVector> vectors = root.getFieldVectors();
            for (int r = 0; r < root.getRowCount(); r++) {
                for (int c = 0; c < columns; c++) {
                    row[c] = value(vectors.get(c), r);
                }
                try {
                    appender.append(row);
                } catch (RuntimeException e) {
                    throw refused(named, rows + 1, appender.failedColumn(), out.schema(), e);
                }
                rows++;
            }
            progress.accept(rows);
        }
    }

    /**
     * A table named {@code table} of {@code arrow}'s columns (named {@code named} in errors): each
     * of the Starling type its Arrow type carries, nullable as the field is, no keys; names in
     * lower case, as CREATE TABLE makes unquoted ones.
     */
    static TableSchema schema(String table, Schema arrow, String named) {
        List<ColumnSchema> columns = new java.util.ArrayList<>();
        for (Field f : arrow.getFields()) {
            refuseDictionaryEncoded(named, f);
            DataType type = ArrowBatches.dataType(f.getType()).orElseThrow(() -> new StarlingSqlException(named
                    + ": its column " + f.getName() + " holds " + f.getType() + ", which no Starling type holds "
                    + "(INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, BOOLEAN, VARCHAR)"));
            columns.add(new ColumnSchema(f.getName().toLowerCase(java.util.Locale.ROOT), type, f.isNullable()));
        }
        if (columns.isEmpty()) {
            throw new StarlingSqlException(named + " has no columns");
        }
        return new TableSchema(table.toLowerCase(java.util.Locale.ROOT), columns, List.of(), List.of());
    }

    /**
     * A reader of the file format where the file starts with its magic ({@code ARROW1}), else of
     * the stream format, whose schema it reads at once: a file that is neither is refused there.
     */
    private static ArrowReader reader(FileChannel channel, BufferAllocator allocator, Path named) throws IOException {
        ByteBuffer magic = ByteBuffer.allocate(FILE_MAGIC.length());
        channel.read(magic, 0);
        if (new String(magic.array(), 0, magic.position(), StandardCharsets.US_ASCII).equals(FILE_MAGIC)) {
            return new ArrowFileReader(channel, allocator);
        }
        ArrowStreamReader stream = new ArrowStreamReader(channel, allocator);
        try {
            stream.getVectorSchemaRoot();
            return stream;
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw notArrow(named, e);
        }
    }

    private static StarlingSqlException notArrow(Path named, Exception e) {
        return new StarlingSqlException(named + " is not an Arrow IPC file or stream (" + e.getMessage() + ")");
    }

    /** Refuses a file column whose Arrow type cannot go into table column {@code column} (number {@code c}). */
    private static void checkType(String named, Field field, int c, ColumnSchema column) {
        refuseDictionaryEncoded(named, field);
        FileValues holds = switch (field.getType().getTypeID()) {
            case Int, FloatingPoint, Decimal -> FileValues.NUMBERS;
            case Utf8, LargeUtf8 -> FileValues.STRINGS;
            case Date -> FileValues.DATES;
            case Bool -> FileValues.BOOLEANS;
            default -> null;
        };
        if (holds == null || !holds.fit(column.type().kind())) {
            throw FileValues.refused(named, c, field.getName(), field.getType().toString(), column);
        }
    }

    /** A dictionary-encoded column (a pandas categorical) arrives as its indices, which are not its values. */
    private static void refuseDictionaryEncoded(String named, Field f) {
        if (f.getDictionary() != null) {
            throw new StarlingSqlException(named + ": its column " + f.getName() + " is dictionary-encoded; send its "
                    + "values (pyarrow: pa.Table.cast or dictionary_decode)");
        }
    }

    /**
     * Why row {@code row} of the file cannot be appended, at table column {@code column} (-1: the
     * row as a whole), without quoting its values: LOAD's errors never echo a file's contents.
     */
    static StarlingSqlException refused(String named, long row, int column, TableSchema schema, RuntimeException e) {
        String at = named + ", row " + row + (column < 0 ? "" : ", column " + schema.column(column).name());
        String message = String.valueOf(e.getMessage());
        String why = column < 0 ? "a key without its referenced row"
                : message.contains("NOT NULL") ? "NULL in a NOT NULL column"
                : e instanceof ArithmeticException ? "the value is out of the range of " + schema.column(column).type()
                : "the value does not fit " + schema.column(column).type();
        return new StarlingSqlException(at + ": " + why);
    }

    /** Row {@code r} of {@code v} as the Java value RowAppender converts: a date-time as its date. */
    private static Object value(FieldVector v, int r) {
        Object o = ArrowValues.value(v, r);
        return o instanceof LocalDateTime t ? t.toLocalDate() : o;
    }
}
