package dev.starling.gpu.cuda;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import jcuda.driver.CUdeviceptr;

/**
 * Device blocks that closed buffers gave back, kept by size class for the next allocation of
 * their class: a query run allocates and frees dozens of buffers (dimension arrays, group states,
 * outputs), and cuMemAlloc maps pages while cuMemFree waits for the device, which together took a
 * fifth to a third of TPC-H Q13's and Q18's host time at SF 10. Sizes are rounded up to one of
 * eight classes per power of two, so a block serves any request of its class and at most an
 * eighth of a block is slack. Not thread-safe: {@link DeviceMemory} guards it.
 */
final class DeviceBlockCache {
    /** The smallest class; cuMemAlloc aligns allocations to 512 bytes or more anyway. */
    static final long MIN_CLASS = 512;

    /** A block: its pointer and address, its class's bytes, and the stamp of the free that cached it. */
    record Block(CUdeviceptr pointer, long address, long capacity, long freedAt) { }

    private final Map<Long, ArrayDeque<Block>> byClass = new HashMap<>();
    /** Classes holding blocks, for evicting the largest first. */
    private final TreeMap<Long, Integer> classes = new TreeMap<>();
    private long bytes;

    /** The class an allocation of {@code bytes} takes: {@code bytes} rounded up to an eighth of its power of two. */
    static long sizeClass(long bytes) {
        if (bytes <= MIN_CLASS) {
            return MIN_CLASS;
        }
        long step = Math.max(MIN_CLASS, Long.highestOneBit(bytes - 1) / 8);
        return (bytes + step - 1) / step * step;
    }

    /** Bytes of the blocks kept. */
    long bytes() {
        return bytes;
    }

    /** A kept block of class {@code capacity}, most recently freed first (its pages are warmest); null if none. */
    Block take(long capacity) {
        ArrayDeque<Block> blocks = byClass.get(capacity);
        if (blocks == null || blocks.isEmpty()) {
            return null;
        }
        Block b = blocks.pollLast();
        forget(b);
        return b;
    }

    void put(Block b) {
        byClass.computeIfAbsent(b.capacity(), c -> new ArrayDeque<>()).addLast(b);
        classes.merge(b.capacity(), 1, Integer::sum);
        bytes += b.capacity();
    }

    /** A block of the largest class kept, taken out to be freed; null if none. */
    Block evict() {
        if (classes.isEmpty()) {
            return null;
        }
        Block b = byClass.get(classes.lastKey()).pollFirst();
        forget(b);
        return b;
    }

    private void forget(Block b) {
        bytes -= b.capacity();
        classes.computeIfPresent(b.capacity(), (c, n) -> n == 1 ? null : n - 1);
    }
}
