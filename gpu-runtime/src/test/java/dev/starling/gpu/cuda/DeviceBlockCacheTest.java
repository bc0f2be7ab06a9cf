package dev.starling.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.Test;

/** Block sizes, and which kept device blocks are reused and evicted first (no GPU needed: nothing is allocated). */
class DeviceBlockCacheTest {

    @Test
    void blocksAreRequestsRoundedUpToTheGrain() {
        assertEquals(512, DeviceBlockCache.blockSize(0));
        assertEquals(512, DeviceBlockCache.blockSize(1));
        assertEquals(512, DeviceBlockCache.blockSize(512));
        assertEquals(1024, DeviceBlockCache.blockSize(513));
        assertEquals(1 << 20, DeviceBlockCache.blockSize((1 << 20) - 100));
    }

    @Test
    void aKeptBlockServesRequestsOfSevenEighthsOfItsSizeOrMoreSmallestAndNewestFirst() {
        DeviceBlockCache cache = new DeviceBlockCache();
        cache.put(block(1, 8192, 1));
        cache.put(block(2, 8192, 2));
        cache.put(block(3, 9216, 3));
        cache.put(block(4, 65536, 4));
        assertEquals(8192 + 8192 + 9216 + 65536, cache.bytes());
        assertNull(cache.take(6656), "an eighth and more of the smallest block would be slack");
        assertNull(cache.take(65536 + 512), "no block is large enough");
        assertEquals(2, cache.take(7168).address(), "the smallest block that serves it, most recently freed first");
        assertEquals(1, cache.take(8192).address());
        assertEquals(3, cache.take(8192).address(), "the next size up");
        assertNull(cache.take(8192));
        assertEquals(65536, cache.bytes());
    }

    @Test
    void theLargestBlocksAreEvictedFirst() {
        DeviceBlockCache cache = new DeviceBlockCache();
        cache.put(block(1, 1024, 1));
        cache.put(block(2, 4096, 2));
        cache.put(block(3, 2048, 3));
        assertEquals(2, cache.evict().address());
        assertEquals(3, cache.evict().address());
        assertEquals(1, cache.evict().address());
        assertNull(cache.evict());
        assertEquals(0, cache.bytes());
    }

    private static DeviceBlockCache.Block block(long address, long capacity, long freedAt) {
        return new DeviceBlockCache.Block(new CUdeviceptr(), address, capacity, freedAt);
    }
}
