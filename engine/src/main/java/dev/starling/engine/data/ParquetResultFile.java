package dev.starling.engine.data;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * A query's rows as a Parquet file (COPY ... FORMAT PARQUET), Snappy-compressed as pyarrow and
 * DuckDB write by default, through parquet-java's writer: each result column one Parquet column of
 * its type ({@link ParquetRows#column}), so LOAD reads the file back into the same types.
 */
final class ParquetResultFile implements ResultFile {
    private final Path file;
    private ParquetWriter<Group> writer;
    private SimpleGroupFactory groups;
    private List<Field> fields;
    private long rows;

    ParquetResultFile(Path file) {
        this.file = file;
    }

    @Override
    public void start(List<Field> fields) {
        this.fields = fields;
        MessageType schema = ParquetRows.schema(fields);
        groups = new SimpleGroupFactory(schema);
        try {
            writer = ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema)
                    .withConf(new PlainParquetConfiguration()).withCodecFactory(ParquetCodecs.INSTANCE)
                    .withCompressionCodec(CompressionCodecName.SNAPPY)
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void accept(Batch batch) {
        try {
            for (int r = 0; r < batch.rows(); r++) {
                Group g = groups.newGroup();
                for (int c = 0; c < fields.size(); c++) {
                    put(g, c, batch.column(c), r);
                }
                writer.write(g);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows += batch.rows();
    }

    /** Row {@code r} of {@code v} into field {@code c} of {@code g}; a NULL is a field left out. */
    private static void put(Group g, int c, Vector v, int r) {
        Object value = v.value(r);
        switch (value) {
            case null -> { }
            case Integer i -> g.append(g.getType().getFieldName(c), i);
            case Long l -> g.append(g.getType().getFieldName(c), l);
            case Double d -> g.append(g.getType().getFieldName(c), d);
            case BigDecimal d -> g.append(g.getType().getFieldName(c), d.unscaledValue().longValueExact());
            case LocalDate d -> g.append(g.getType().getFieldName(c), Math.toIntExact(d.toEpochDay()));
            case Boolean b -> g.append(g.getType().getFieldName(c), b);
            case String s -> g.append(g.getType().getFieldName(c), s);
            default -> throw new IllegalStateException("no Parquet value for " + value.getClass().getSimpleName());
        }
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        if (writer != null) {
            writer.close();
        }
    }
}
