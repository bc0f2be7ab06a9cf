package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import dev.starling.engine.data.Ingest;
import dev.starling.engine.data.RecordBatches;
import dev.starling.gpu.cache.DeviceColumn;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.Table;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import jcuda.Pointer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On the GPU host: rows uploaded into a table kept resident, in many small batches, land in device
 * memory as they come (through the persistent append kernel), so that the new version's columns
 * are resident the moment it commits, byte for byte what its host chunks hold, and its queries
 * answer on the GPU as the CPU does and as a table loaded at once does; an append that fails (a
 * repeated key) leaves the table and device memory as they were.
 */
@Tag("gpu")
class GpuResidentAppendTest {
    private static final int FIRST = 70_000;
    private static final int BATCHES = 150;
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("qty", FieldType.nullable(new ArrowType.Int(32, true)), null),
            new Field("price", FieldType.notNullable(new ArrowType.Decimal(12, 2, 128)), null),
            new Field("tag", FieldType.nullable(new ArrowType.Utf8()), null),
            new Field("shipped", FieldType.notNullable(new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)), null)));
    private static final String[] TAGS = {"AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB", "REG AIR"};

    @Test
    void smallBatchesIntoAResidentTableLandOnTheDeviceAsTheyCome() throws Exception {
        withAppendsOnDevice(GpuResidentAppendTest::appendInSmallBatches);
    }

    @Test
    void twoAppendsAtOnceAndQueriesDuringThemSeeOnlyCommittedVersions() throws Exception {
        withAppendsOnDevice(GpuResidentAppendTest::appendAtOnceWithQueries);
    }

    /** A test's body, on an engine whose GPU keeps appends on the device. */
    private interface Body {
        void run(Starling db, GpuBackend gpu, BufferAllocator allocator) throws Exception;
    }

    /** Runs {@code body} with appends kept on the device, and lets its table go after, also when it fails. */
    private static void withAppendsOnDevice(Body body) throws Exception {
        try (Starling db = Starling.inMemory(); BufferAllocator allocator = new RootAllocator()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            gpu.keepAppendsOnDevice(true);
            try {
                body.run(db, gpu, allocator);
            } finally {
                gpu.keepAppendsOnDevice(false);
                release(db, gpu);
            }
        }
    }

    /**
     * Two uploads into one resident table at the same time (disjoint ids), while another thread
     * queries it on the GPU: every query sees a version some statement committed, and the end is
     * what the same rows loaded at once give.
     */
    private static void appendAtOnceWithQueries(Starling db, GpuBackend gpu, BufferAllocator allocator) throws Exception {
        gpu.columnCache().clear();
        long baseline = gpu.device().memory().used();
        String columns = " (id BIGINT PRIMARY KEY, qty INTEGER, price DECIMAL(12,2), tag VARCHAR(8), shipped DATE)";
        db.query("CREATE TABLE items" + columns);
        db.query("CREATE TABLE items_at_once" + columns);
        int[] sizes = new SplittableRandom(11).ints(60, 1, 2_000).toArray();
        int appended = java.util.Arrays.stream(sizes).sum();
        int other = 10_000_000;
        ingest(db, allocator, "items", new int[] {FIRST}, 0);
        for (int first : new int[] {0, FIRST, other}) {
            ingest(db, allocator, "items_at_once", new int[] {first == 0 ? FIRST : appended}, first);
        }
        db.query("ALTER TABLE items SET (gpu_resident = true)");
        db.setBackendMode(dev.starling.exec.BackendMode.GPU);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            var a = pool.submit(() -> ingest(db, allocator, "items", sizes, FIRST));
            var b = pool.submit(() -> ingest(db, allocator, "items", sizes, other));
            java.util.Set<Long> committed = java.util.Set.of((long) FIRST, (long) FIRST + appended,
                    (long) FIRST + 2L * appended);
            int queries = 0;
            while (!a.isDone() || !b.isDone() || queries == 0) {
                Object count = db.query("SELECT count(*) FROM items WHERE price > 0").rows().getFirst().getFirst();
                assertTrue(committed.contains((Long) count), "a query saw " + count + " rows, no committed version's");
                queries++;
            }
            a.get();
            b.get();
        } finally {
            pool.shutdownNow();
            db.setBackendMode(dev.starling.exec.BackendMode.AUTO);
        }
        Table items = db.catalog().require("items");
        assertEquals(FIRST + 2L * appended, items.rowCount());
        assertDeviceHoldsTheChunks(gpu.columnCache(), items);
        String sql = "SELECT tag, count(*), sum(qty), sum(price), min(shipped), max(id) FROM %s GROUP BY tag ORDER BY tag";
        assertTrue(GpuResults.assertSameOnGpu(db, gpu, sql.formatted("items"), sql.formatted("items")));
        assertEquals(db.query(sql.formatted("items_at_once")).rows(), db.query(sql.formatted("items")).rows());
        db.query("ALTER TABLE items SET (gpu_resident = false)");
        gpu.columnCache().clear();
        assertEquals(baseline, gpu.device().memory().used(), "device memory back to its baseline");
    }

    private static void appendInSmallBatches(Starling db, GpuBackend gpu, BufferAllocator allocator) {
        gpu.columnCache().clear();
        long baseline = gpu.device().memory().used();
        db.query("CREATE TABLE items (id BIGINT PRIMARY KEY, qty INTEGER, price DECIMAL(12,2), tag VARCHAR(8), "
                + "shipped DATE)");
        db.query("CREATE TABLE items_at_once (id BIGINT PRIMARY KEY, qty INTEGER, price DECIMAL(12,2), "
                + "tag VARCHAR(8), shipped DATE)");
        int[] sizes = new SplittableRandom(7).ints(BATCHES, 1, 2_000).toArray();
        int total = FIRST + java.util.Arrays.stream(sizes).sum();
        ingest(db, allocator, "items", new int[] {FIRST}, 0);
        ingest(db, allocator, "items_at_once", new int[] {total}, 0);
        db.query("ALTER TABLE items SET (gpu_resident = true)");
        long resident = gpu.columnCache().residentBytes();

        ingest(db, allocator, "items", sizes, FIRST);
        Table items = db.catalog().require("items");
        assertEquals(total, items.rowCount());
        assertDeviceHoldsTheChunks(gpu.columnCache(), items);
        assertTrue(gpu.columnCache().residentBytes() > resident, "the new version's columns are resident");

        for (String sql : List.of(
                "SELECT tag, count(*), sum(qty), sum(price), min(shipped), max(id) FROM %s GROUP BY tag ORDER BY tag",
                "SELECT count(*), count(qty), sum(price) FROM %s WHERE id >= 69000",
                "SELECT sum(price) FROM %s WHERE qty IS NULL OR tag = 'RAIL'")) {
            String appended = sql.formatted("items");
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, appended, appended), appended + " runs on the GPU");
            assertEquals(db.query(sql.formatted("items_at_once")).rows(), db.query(appended).rows(),
                    "appended in batches and loaded at once: " + sql);
        }

        // one row more, through INSERT, and one that repeats a key: the last fails whole
        db.query("INSERT INTO items VALUES (" + (total + 1) + ", 3, 12.50, 'NEW', DATE '2026-12-07')");
        Table inserted = db.catalog().require("items");
        assertDeviceHoldsTheChunks(gpu.columnCache(), inserted);
        assertThrows(RuntimeException.class,
                () -> db.query("INSERT INTO items VALUES (1, 1, 1.00, 'DUP', DATE '2026-12-07')"));
        assertEquals(inserted, db.catalog().require("items"), "the failed INSERT changed nothing");

        db.query("ALTER TABLE items SET (gpu_resident = false)");
        gpu.columnCache().clear();
        assertEquals(baseline, gpu.device().memory().used(), "device memory back to its baseline");
    }

    /** Lets the test's table go from GPU memory also when the test fails, so that the next one starts from nothing. */
    private static void release(Starling db, GpuBackend gpu) {
        if (db.catalog().table("items").isPresent()) {
            db.query("ALTER TABLE items SET (gpu_resident = false)");
        }
        gpu.columnCache().clear();
    }

    /** Every column of {@code table} is resident and holds, byte for byte, its chunks' values and NULL flags. */
    private static void assertDeviceHoldsTheChunks(GpuColumnCache cache, Table table) {
        for (int c = 0; c < table.columns().size(); c++) {
            var column = table.column(c);
            assertTrue(cache.isResident(column), column.name() + " is resident as soon as the append commits");
            try (GpuColumnCache.Lease<DeviceColumn> lease = cache.lease(table, c)) {
                DeviceColumn dc = lease.value();
                int width = dc.width();
                byte[] device = new byte[Math.toIntExact(table.rowCount() * width)];
                dc.values().download(Pointer.to(device), device.length);
                byte[] host = new byte[device.length];
                byte[] hostNulls = new byte[Math.toIntExact(table.rowCount())];
                boolean anyNull = false;
                long at = 0;
                for (ColumnChunk chunk : column.chunks()) {
                    MemorySegment.copy(chunk.values(), 0, MemorySegment.ofArray(host), at * width, (long) chunk.rows() * width);
                    if (chunk.nulls() != null) {
                        anyNull = true;
                        MemorySegment.copy(chunk.nulls(), 0, MemorySegment.ofArray(hostNulls), at, chunk.rows());
                    }
                    at += chunk.rows();
                }
                assertArrayEquals(host, device, column.name() + "'s values on the device");
                assertEquals(anyNull, dc.nulls() != null, column.name() + " keeps NULL flags where it has NULLs");
                if (anyNull) {
                    byte[] deviceNulls = new byte[hostNulls.length];
                    dc.nulls().download(Pointer.to(deviceNulls), deviceNulls.length);
                    assertArrayEquals(hostNulls, deviceNulls, column.name() + "'s NULL flags on the device");
                }
            }
        }
    }

    /** Uploads rows {@code first}, {@code first + 1}, ... into {@code table}, one record batch per size in {@code sizes}. */
    private static void ingest(Starling db, BufferAllocator allocator, String table, int[] sizes, int first) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            int[] next = {0, first};
            db.ingest(new Ingest(table, false, Ingest.IfExists.APPEND), RecordBatches.of(root, () -> {
                if (next[0] == sizes.length) {
                    return false;
                }
                fill(root, next[1], sizes[next[0]]);
                next[1] += sizes[next[0]++];
                return true;
            }), table, rows -> { });
        }
    }

    /** Rows {@code first} to {@code first + n}: each row's values a function of its id. */
    private static void fill(VectorSchemaRoot root, int first, int n) {
        root.allocateNew();
        BigIntVector id = (BigIntVector) root.getVector(0);
        IntVector qty = (IntVector) root.getVector(1);
        DecimalVector price = (DecimalVector) root.getVector(2);
        VarCharVector tag = (VarCharVector) root.getVector(3);
        DateDayVector shipped = (DateDayVector) root.getVector(4);
        for (int r = 0; r < n; r++) {
            long row = first + r;
            SplittableRandom random = new SplittableRandom(row);
            id.setSafe(r, row);
            if (random.nextInt(9) == 0) {
                qty.setNull(r);
            } else {
                qty.setSafe(r, random.nextInt(1, 51));
            }
            price.setSafe(r, BigDecimal.valueOf(random.nextLong(100, 10_000_000), 2));
            if (random.nextInt(13) == 0) {
                tag.setNull(r);
            } else {
                tag.setSafe(r, TAGS[random.nextInt(TAGS.length)].getBytes(StandardCharsets.UTF_8));
            }
            shipped.setSafe(r, 8_000 + random.nextInt(2_500));
        }
        root.setRowCount(n);
    }
}
