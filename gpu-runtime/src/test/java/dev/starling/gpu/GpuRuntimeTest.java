package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.gpu.cache.DeviceColumn;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the GPU host: device memory accounting, the budget, resident tables, and the column cache's round trip. */
@Tag("gpu")
class GpuRuntimeTest {

    @Test
    void memoryReturnsToItsBaseline() {
        try (GpuDevice device = GpuDevices.openOrSkip(0)) {
            long before = device.memory().used();
            try (DeviceBuffer a = device.memory().allocate(1 << 20, "a");
                 DeviceBuffer b = device.memory().allocate(3, "b")) {
                assertTrue(device.memory().used() >= before + (1 << 20) + 3);
                a.clear();
                b.clear();
            }
            assertEquals(before, device.memory().used());
        }
    }

    @Test
    void closedBuffersBlocksAreReusedAndFreedWhenAnAllocationNeedsTheRoom() {
        try (GpuDevice device = GpuDevices.openOrSkip(4 << 20)) {
            DeviceMemory memory = device.memory();
            long address;
            try (DeviceBuffer a = memory.allocate(1 << 20, "a")) {
                address = a.address();
                a.clear();
            }
            assertEquals(0, memory.used());
            assertEquals(1 << 20, memory.kept());
            try (DeviceBuffer small = memory.allocate(1 << 19, "half as large")) {
                assertEquals(1 << 20, memory.kept(), "a block twice as large as asked for is not taken");
            }
            memory.freeKept();
            try (DeviceBuffer a = memory.allocate(1 << 20, "a")) {
                address = a.address();
            }
            try (DeviceBuffer again = memory.allocate((1 << 20) - 100_000, "a little smaller")) {
                assertEquals(address, again.address(), "the kept block serves a request up to an eighth smaller");
                assertEquals((1 << 20) - 100_000, again.bytes());
                assertEquals(1 << 20, again.heldBytes());
                assertEquals(0, memory.kept());
                again.fill(7L, 8);
                long[] back = new long[2];
                again.download(Pointer.to(back), 16);
                assertArrayEquals(new long[] {7, 7}, back);
            }
            // 3.5 MB fit the 4 MB budget only once the kept 1 MB block is freed
            try (DeviceBuffer big = memory.allocate(7 << 19, "big")) {
                big.clear();
                assertEquals(0, memory.kept());
            }
            memory.freeKept();
            assertEquals(0, memory.kept());
            assertEquals(0, memory.used());
        }
    }

    @Test
    void theBudgetIsEnforced() {
        try (GpuDevice device = GpuDevices.openOrSkip(1 << 20)) {
            GpuOutOfMemoryException e = assertThrows(GpuOutOfMemoryException.class,
                    () -> device.memory().allocate(2 << 20, "too big"));
            assertTrue(e.getMessage().contains("too big"), e.getMessage());
            assertEquals(0, device.memory().used());
        }
    }

    @Test
    void residentTablesAreNotEvicted() {
        Table t = longs("kept", 100_000);
        Table other = longs("other", 100_000);
        // room for the resident table and a little more, not for both tables
        try (GpuDevice device = GpuDevices.openOrSkip(1_200_000); GpuColumnCache cache = new GpuColumnCache(device)) {
            cache.keepResident(t);
            long kept = cache.residentBytes();
            assertEquals(800_000, kept);
            cache.clear();
            assertEquals(kept, cache.residentBytes());
            assertThrows(GpuOutOfMemoryException.class, () -> cache.lease(other, 0));
            assertTrue(cache.isResident(t.column(0)));
            assertTrue(cache.release("kept"));
            cache.lease(other, 0).close();
            assertTrue(!cache.isResident(t.column(0)), "released columns make room");
            assertThrows(GpuOutOfMemoryException.class, () -> cache.keepResident(longs("big", 200_000)));
            assertTrue(cache.residentTables().isEmpty(), "a table that does not fit is not kept");
            cache.clear();
            assertEquals(0, device.memory().used());
        }
    }

    @Test
    void aColumnLargerThanTheStagingBuffersRoundTrips() {
        // 6M longs, 48 MB: the upload alternates between its two 32 MB staging buffers
        Table t = longs("big", 6_000_000);
        try (GpuDevice device = GpuDevices.openOrSkip(0); GpuColumnCache cache = new GpuColumnCache(device)) {
            long[] back = new long[6_000_000];
            try (GpuColumnCache.Lease<DeviceColumn> lease = cache.lease(t, 0)) {
                lease.value().values().download(Pointer.to(back), back.length * 8L);
            }
            for (int r = 0; r < back.length; r++) {
                if (back[r] != r) {
                    assertEquals(r, back[r], "row " + r);
                }
            }
            cache.clear();
            assertEquals(0, device.memory().used());
        }
    }

    private static Table longs(String name, int rows) {
        TableSchema schema = new TableSchema(name, List.of(new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, Catalog.inMemory());
        for (int r = 0; r < rows; r++) {
            b.setLong(0, r);
            b.endRow();
        }
        return b.build();
    }

    @Test
    void columnsRoundTripThroughTheCache() {
        Catalog catalog = Catalog.inMemory();
        TableSchema schema = new TableSchema("t", List.of(new ColumnSchema("v", DataType.BIGINT, true)), List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, catalog);
        int rows = 200_000;
        for (int r = 0; r < rows; r++) {
            if (r % 1000 == 7) {
                b.setNull(0);
            } else {
                b.setLong(0, r * 3L - 100);
            }
            b.endRow();
        }
        Table t = b.build();
        try (GpuDevice device = GpuDevices.openOrSkip(0); GpuColumnCache cache = new GpuColumnCache(device)) {
            long[] back = new long[rows];
            byte[] nulls = new byte[rows];
            try (GpuColumnCache.Lease<DeviceColumn> lease = cache.lease(t, 0)) {
                lease.value().values().download(Pointer.to(back), rows * 8L);
                lease.value().nulls().download(Pointer.to(nulls), rows);
            }
            long[] expected = new long[rows];
            byte[] expectedNulls = new byte[rows];
            for (int r = 0; r < rows; r++) {
                expected[r] = r % 1000 == 7 ? back[r] : r * 3L - 100;
                expectedNulls[r] = (byte) (r % 1000 == 7 ? 1 : 0);
            }
            assertArrayEquals(expected, back);
            assertArrayEquals(expectedNulls, nulls);
            assertTrue(cache.isResident(t.column(0)));
            cache.clear();
            assertEquals(0, cache.residentBytes());
            assertEquals(0, device.memory().used());
        }
    }
}
