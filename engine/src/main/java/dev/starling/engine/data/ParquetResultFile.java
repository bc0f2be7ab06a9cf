package dev.starling.engine.data;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * A query's rows as a Parquet file (COPY ... FORMAT PARQUET), Snappy-compressed as pyarrow and
 * DuckDB write by default, through parquet-java's writer: each result column one Parquet column of
 * its type ({@link ParquetRows#column}), so LOAD reads the file back into the same types. Rows go
 * from the executor's batches straight to the writer's record consumer, value by value, with no
 * object per row.
 */
final class ParquetResultFile implements ResultFile {
    private final Path file;
    private final Rows rowsOf = new Rows();
    private ParquetWriter<Rows> writer;
    private long rows;

    ParquetResultFile(Path file) {
        this.file = file;
    }

    /** The row of a batch being written: one object, moved along, handed to the writer for each row. */
    private static final class Rows {
        Batch batch;
        int row;
    }

    @Override
    public void start(List<Field> fields) {
        MessageType schema = ParquetRows.schema(fields);
        try {
            writer = new Builder(new LocalOutputFile(file), schema).withConf(new PlainParquetConfiguration())
                    .withCodecFactory(ParquetCodecs.INSTANCE).withCompressionCodec(CompressionCodecName.SNAPPY)
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void accept(Batch batch) {
        rowsOf.batch = batch;
        try {
            for (int r = 0; r < batch.rows(); r++) {
                rowsOf.row = r;
                writer.write(rowsOf);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows += batch.rows();
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

    private static final class Builder extends ParquetWriter.Builder<Rows, Builder> {
        private final MessageType schema;

        Builder(OutputFile file, MessageType schema) {
            super(file);
            this.schema = schema;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Rows> getWriteSupport(Configuration conf) {
            return new RowsWriteSupport(schema);
        }

        @Override
        protected WriteSupport<Rows> getWriteSupport(ParquetConfiguration conf) {
            return new RowsWriteSupport(schema);
        }
    }

    /** Writes a row's non-NULL values, each as its column's Parquet type (a NULL is a field left out). */
    private static final class RowsWriteSupport extends WriteSupport<Rows> {
        private final MessageType schema;
        private RecordConsumer out;

        RowsWriteSupport(MessageType schema) {
            this.schema = schema;
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            out = recordConsumer;
        }

        @Override
        public void write(Rows at) {
            out.startMessage();
            for (int c = 0; c < at.batch.width(); c++) {
                Vector v = at.batch.column(c);
                int r = at.row;
                if (v.isNull(r)) {
                    continue;
                }
                String name = schema.getFieldName(c);
                out.startField(name, c);
                switch (v.type().kind()) {
                    case INTEGER, DATE -> out.addInteger(Math.toIntExact(v.getLong(r)));
                    case BIGINT, DECIMAL -> out.addLong(v.getLong(r));
                    case DOUBLE -> out.addDouble(v.getDouble(r));
                    case BOOLEAN -> out.addBoolean(v.getLong(r) != 0);
                    case VARCHAR -> out.addBinary(Binary.fromString(v.getString(r)));
                }
                out.endField(name, c);
            }
            out.endMessage();
        }
    }
}
