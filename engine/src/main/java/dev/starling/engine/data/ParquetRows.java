package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The rows of a Parquet file appended to a table (LOAD ... FORMAT PARQUET), row group by row group,
 * through parquet-java's record reader: the file's columns match the table's by position, each
 * read as the Java value {@link RowAppender} converts, as an assignment does. What a column holds
 * is told by its physical type and its logical annotation: integers, decimals, floating point,
 * dates, booleans and strings map; nested columns, timestamps, INT96 and unannotated binary are
 * refused by name, before a row is read.
 */
final class ParquetRows {
    private ParquetRows() { }

    /** How one file column is read into the value RowAppender takes. */
    private interface Reader {
        Object read(Group row, int field);
    }

    static void appendFile(Path file, Path named, TableBuilder out, LongConsumer progress) {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(ParquetCodecs.INSTANCE).build();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            TableSchema table = out.schema();
            int columns = table.columns().size();
            if (schema.getFieldCount() != columns) {
                throw new StarlingSqlException(named + " has " + schema.getFieldCount() + " columns, table "
                        + table.name() + " " + columns);
            }
            Reader[] readers = new Reader[columns];
            for (int c = 0; c < columns; c++) {
                readers[c] = reader(named, schema.getType(c), c, table.column(c));
            }
            MessageColumnIO io = new ColumnIOFactory().getColumnIO(schema);
            RowAppender appender = new RowAppender(out, IntStream.range(0, columns).toArray());
            Object[] row = new Object[columns];
            long rows = 0;
            for (PageReadStore group = reader.readNextRowGroup(); group != null; group = reader.readNextRowGroup()) {
                RecordReader<Group> records = io.getRecordReader(group, new GroupRecordConverter(schema));
                for (long r = 0; r < group.getRowCount(); r++) {
                    Group g = records.read();
                    for (int c = 0; c < columns; c++) {
                        row[c] = g.getFieldRepetitionCount(c) == 0 ? null : readers[c].read(g, c);
                    }
                    try {
                        appender.append(row);
                    } catch (RuntimeException e) {
                        throw ArrowRows.refused(named.toString(), rows + 1, appender.failedColumn(), table, e);
                    }
                    rows++;
                }
                progress.accept(rows);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + named + " as Parquet: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (e instanceof StarlingSqlException || e instanceof UncheckedIOException) {
                throw e;
            }
            // a damaged file fails inside parquet-java; its message names the part, not the contents
            throw new StarlingSqlException(named + " is not a Parquet file it can read (" + e.getMessage() + ")");
        }
    }

    /**
     * The reader of file column {@code type} (number {@code c}) into table column {@code column},
     * which must take what it holds ({@link FileValues}).
     */
    private static Reader reader(Path named, Type type, int c, ColumnSchema column) {
        if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
            throw refusedType(named, type, c, "a nested or repeated column", column);
        }
        PrimitiveType p = type.asPrimitiveType();
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        Reader reader;
        FileValues holds;
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            int scale = d.getScale();
            reader = switch (p.getPrimitiveTypeName()) {
                case INT32 -> (g, f) -> BigDecimal.valueOf(g.getInteger(f, 0), scale);
                case INT64 -> (g, f) -> BigDecimal.valueOf(g.getLong(f, 0), scale);
                default -> (g, f) -> new BigDecimal(new BigInteger(g.getBinary(f, 0).getBytes()), scale);
            };
            holds = FileValues.NUMBERS;
        } else if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
            reader = (g, f) -> LocalDate.ofEpochDay(g.getInteger(f, 0));
            holds = FileValues.DATES;
        } else if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
            reader = (g, f) -> g.getBinary(f, 0).toStringUsingUTF8();
            holds = FileValues.STRINGS;
        } else if (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
            boolean unsigned32 = logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
                    && !i.isSigned() && i.getBitWidth() == 32;
            if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned()
                    && i.getBitWidth() == 64) {
                throw refusedType(named, type, c, "unsigned 64-bit integers", column);
            }
            switch (p.getPrimitiveTypeName()) {
                case INT32 -> {
                    reader = unsigned32 ? (g, f) -> Integer.toUnsignedLong(g.getInteger(f, 0))
                            : (g, f) -> (long) g.getInteger(f, 0);
                    holds = FileValues.NUMBERS;
                }
                case INT64 -> {
                    reader = (g, f) -> g.getLong(f, 0);
                    holds = FileValues.NUMBERS;
                }
                case FLOAT -> {
                    reader = (g, f) -> (double) g.getFloat(f, 0);
                    holds = FileValues.NUMBERS;
                }
                case DOUBLE -> {
                    reader = (g, f) -> g.getDouble(f, 0);
                    holds = FileValues.NUMBERS;
                }
                case BOOLEAN -> {
                    reader = (g, f) -> g.getBoolean(f, 0);
                    holds = FileValues.BOOLEANS;
                }
                default -> throw refusedType(named, type, c, p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96
                        ? "INT96 timestamps" : "bytes that are not text", column);
            }
        } else {
            throw refusedType(named, type, c, logical.toString(), column);
        }
        if (!holds.fit(column.type().kind())) {
            throw refusedType(named, type, c, p.getPrimitiveTypeName() + (logical == null ? "" : " " + logical), column);
        }
        return reader;
    }

    private static StarlingSqlException refusedType(Path named, Type type, int c, String holds, ColumnSchema column) {
        return FileValues.refused(named.toString(), c, type.getName(), holds, column);
    }

    /** The Parquet column a result column of {@code type} is written as (COPY ... FORMAT PARQUET). */
    static PrimitiveType column(String name, DataType type, boolean nullable) {
        Type.Repetition repetition = nullable ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        var builder = switch (type.kind()) {
            case INTEGER -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.INT32, repetition);
            case BIGINT -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.INT64, repetition);
            case DOUBLE -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.DOUBLE, repetition);
            case DECIMAL -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.INT64, repetition)
                    .as(LogicalTypeAnnotation.decimalType(type.scale(), type.precision()));
            case DATE -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.INT32, repetition)
                    .as(LogicalTypeAnnotation.dateType());
            case BOOLEAN -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.BOOLEAN, repetition);
            case VARCHAR -> org.apache.parquet.schema.Types.primitive(PrimitiveType.PrimitiveTypeName.BINARY, repetition)
                    .as(LogicalTypeAnnotation.stringType());
        };
        return builder.named(name);
    }

    /** The file schema of a query's result columns. */
    static MessageType schema(List<dev.starling.exec.plan.Field> fields) {
        return new MessageType("result", fields.stream()
                .map(f -> (Type) column(f.name(), f.type(), f.nullable())).toList());
    }
}
