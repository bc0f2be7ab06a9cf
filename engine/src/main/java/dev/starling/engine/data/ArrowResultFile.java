package dev.starling.engine.data;

import dev.starling.exec.ArrowBatches;
import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;

/**
 * A query's rows in Arrow IPC form, in record batches of about {@link #BATCH_ROWS} rows with the
 * result's column types (ArrowBatches.schema): the random-access file format that pyarrow's
 * {@code ipc.open_file}, DuckDB and Arrow readers open, or the stream format
 * ({@code ipc.open_stream}), which a reader takes in one pass and a pipe can carry.
 */
final class ArrowResultFile implements ResultFile {
    /** The executor's batches are gathered into record batches of this many rows: fewer, larger blocks to read. */
    private static final int BATCH_ROWS = 64 * 1024;

    private final FileChannel channel;
    private final BufferAllocator allocator = new RootAllocator();
    private VectorSchemaRoot root;
    private final boolean stream;
    private ArrowWriter writer;
    private List<Field> fields;
    private final List<Batch> pending = new ArrayList<>();
    private int pendingRows;
    private long rows;

    /** Writes {@code file}, in the stream format when {@code stream}, else the file format. */
    ArrowResultFile(Path file, boolean stream) throws IOException {
        this.stream = stream;
        this.channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public void start(List<Field> fields) {
        this.fields = fields;
        root = VectorSchemaRoot.create(ArrowBatches.schema(fields), allocator);
        writer = stream ? new ArrowStreamWriter(root, null, channel) : new ArrowFileWriter(root, null, channel);
        try {
            writer.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void accept(Batch batch) {
        pending.add(batch);
        pendingRows += batch.rows();
        if (pendingRows >= BATCH_ROWS) {
            write();
        }
    }

    @Override
    public void finish() {
        if (!pending.isEmpty()) {
            write();
        }
        try {
            writer.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write() {
        ArrowBatches.fill(root, fields, pending);
        try {
            writer.writeBatch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows += pendingRows;
        pending.clear();
        pendingRows = 0;
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        try (channel; allocator) {
            if (writer != null) {
                writer.close();
            }
            if (root != null) {
                root.close();
            }
        }
    }
}
