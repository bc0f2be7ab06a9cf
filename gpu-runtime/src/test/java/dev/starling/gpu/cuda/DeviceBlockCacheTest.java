package dev.starling.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.Test;

/** Size classes and the order in which kept device blocks are reused and evicted (no GPU needed: nothing is allocated). */
class DeviceBlockCacheTest {

    @Test
    void sizesRoundUpToAnEighthOfTheirPowerOfTwoOrTheSmallestClass() {
        assertEquals(512, DeviceBlockCache.sizeClass(1));
        assertEquals(512, DeviceBlockCache.sizeClass(512));
        assertEquals(1024, DeviceBlockCache.sizeClass(513));
        assertEquals(1 << 20, DeviceBlockCache.sizeClass(1 << 20));
        assertEquals((1 << 20) + (1 << 17), DeviceBlockCache.sizeClass((1 << 20) + 1));
        assertEquals(7L << 19, DeviceBlockCache.sizeClass(7L << 19));
        for (long bytes = 1; bytes < (1L << 40); bytes = bytes * 3 + 1) {
            long c = DeviceBlockCache.sizeClass(bytes);
            assertTrue(c >= bytes && c - bytes < Math.max(DeviceBlockCache.MIN_CLASS, c / 8 + 1), bytes + " -> " + c);
            assertEquals(c, DeviceBlockCache.sizeClass(c), "a class is its own class");
        }
    }

    @Test
    void blocksServeTheirOwnClassNewestFirstAndTheLargestAreEvictedFirst() {
        DeviceBlockCache cache = new DeviceBlockCache();
        cache.put(block(1, 1024, 1));
        cache.put(block(2, 1024, 2));
        cache.put(block(3, 4096, 3));
        assertEquals(6144, cache.bytes());
        assertNull(cache.take(2048));
        assertEquals(2, cache.take(1024).address(), "the most recently freed block of the class");
        assertEquals(3, cache.evict().address(), "the largest class goes first");
        assertEquals(1, cache.evict().address());
        assertNull(cache.evict());
        assertEquals(0, cache.bytes());
    }

    private static DeviceBlockCache.Block block(long address, long capacity, long freedAt) {
        return new DeviceBlockCache.Block(new CUdeviceptr(), address, capacity, freedAt);
    }
}
