package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.engine.data.Ingest;
import dev.starling.engine.data.RecordBatches;
import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.append.AppendPath;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Appends into a table kept resident on the GPU against the same appends into one that is not, by
 * bulk ingest in record batches of several sizes: rows a second through the whole append (the
 * CPU's reading and building included, and for the resident table its device columns copied and
 * the rows sent as they come), and the first query after it, which for the resident table finds
 * its columns on the device and for the other uploads them.
 */
@Command(name = "starling-resident-append-bench", mixinStandardHelpOptions = true,
        description = "Measures appends into a GPU-resident table against a table that is not resident.")
public final class ResidentAppendBenchMain implements Callable<Integer> {
    private static final Schema SCHEMA = new Schema(List.of(
            new org.apache.arrow.vector.types.pojo.Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new org.apache.arrow.vector.types.pojo.Field("qty", FieldType.notNullable(new ArrowType.Int(32, true)), null),
            new org.apache.arrow.vector.types.pojo.Field("amount", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
    private static final String QUERY = "SELECT count(*), sum(qty), sum(amount) FROM %s WHERE qty > 10";

    @Option(names = "--base-rows", description = "Rows in each table before the appends (default: ${DEFAULT-VALUE}).")
    private int baseRows = 10_000_000;

    @Option(names = "--append-rows", description = "Rows appended per batch size (default: ${DEFAULT-VALUE}).")
    private int appendRows = 1_000_000;

    @Option(names = "--batch-rows", split = ",", description = "Rows per record batch (default: ${DEFAULT-VALUE}).")
    private int[] batchRows = {1_000, 10_000, 100_000};

    public static void main(String[] args) {
        System.exit(new CommandLine(new ResidentAppendBenchMain()).execute(args));
    }

    @Override
    public Integer call() {
        try (Starling db = Starling.inMemory(); BufferAllocator allocator = new RootAllocator()) {
            GpuBackend gpu = db.gpu().orElseThrow(() -> new IllegalStateException("no GPU"));
            gpu.keepAppendsOnDevice(true);
            System.out.printf("%s; tables of (BIGINT, INTEGER, BIGINT), %,d rows before; %,d rows appended per batch "
                    + "size by bulk ingest; persistent kernel up to %d KiB batches; Java %s%n%n", gpu.device().describe(),
                    baseRows, appendRows, AppendPath.PERSISTENT_UP_TO_BYTES >> 10, System.getProperty("java.version"));
            for (String t : List.of("resident", "plain")) {
                db.query("CREATE TABLE " + t + " (id BIGINT, qty INTEGER, amount BIGINT)");
                ingest(db, allocator, t, 0, baseRows, 65_536);
            }
            long next = baseRows;
            db.query("ALTER TABLE resident SET (gpu_resident = true)");
            db.setBackendMode(BackendMode.GPU);
            db.query(QUERY.formatted("plain"));
            List<List<Object>> rows = new ArrayList<>();
            for (int batch : batchRows) {
                for (String t : List.of("resident", "plain")) {
                    long start = System.nanoTime();
                    ingest(db, allocator, t, next, appendRows, batch);
                    double appendSeconds = (System.nanoTime() - start) / 1e9;
                    start = System.nanoTime();
                    db.query(QUERY.formatted(t));
                    double firstMs = (System.nanoTime() - start) / 1e6;
                    start = System.nanoTime();
                    db.query(QUERY.formatted(t));
                    double hotMs = (System.nanoTime() - start) / 1e6;
                    long batchBytes = 16L * batch;
                    rows.add(List.of(t, (long) batch, batchBytes >> 10,
                            t.equals("resident") ? (AppendPath.persistent(batchBytes) ? "persistent" : "copy") : "-",
                            appendRows / appendSeconds / 1e6, firstMs, hotMs));
                }
                next += appendRows;
            }
            if (!db.query(QUERY.formatted("resident")).rows().equals(db.query(QUERY.formatted("plain")).rows())) {
                throw new IllegalStateException("the resident and the plain table answer differently");
            }
            System.out.print(new QueryResult(List.of(
                    new Field("table", DataType.VARCHAR, false),
                    new Field("batch_rows", DataType.BIGINT, false),
                    new Field("batch_kib", DataType.BIGINT, false),
                    new Field("device_path", DataType.VARCHAR, false),
                    new Field("M_rows/s", DataType.DOUBLE, false),
                    new Field("first_query_ms", DataType.DOUBLE, false),
                    new Field("hot_query_ms", DataType.DOUBLE, false)), rows).toText());
        }
        return 0;
    }

    /** Uploads rows {@code first} to {@code first + count} into {@code table}, {@code batch} rows a record batch. */
    private static void ingest(Starling db, BufferAllocator allocator, String table, long first, int count, int batch) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            long[] at = {first};
            long end = first + count;
            db.ingest(new Ingest(table, false, Ingest.IfExists.APPEND), RecordBatches.of(root, () -> {
                if (at[0] >= end) {
                    return false;
                }
                int n = (int) Math.min(batch, end - at[0]);
                root.allocateNew();
                BigIntVector id = (BigIntVector) root.getVector(0);
                IntVector qty = (IntVector) root.getVector(1);
                BigIntVector amount = (BigIntVector) root.getVector(2);
                for (int r = 0; r < n; r++) {
                    long row = at[0] + r;
                    id.setSafe(r, row);
                    qty.setSafe(r, (int) (row * 7 % 50) + 1);
                    amount.setSafe(r, row * 13 % 100_000);
                }
                root.setRowCount(n);
                at[0] += n;
                return true;
            }), table, rows -> { });
        }
    }
}
