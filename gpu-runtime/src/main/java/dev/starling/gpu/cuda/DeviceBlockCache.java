package dev.starling.gpu.cuda;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import jcuda.driver.CUdeviceptr;

/**
 * Device blocks that closed buffers gave back, kept for the next allocations they fit: a query
 * run allocates and frees dozens of buffers (dimension arrays, group states, outputs), and
 * cuMemAlloc maps pages while cuMemFree waits for the device, which together took a fifth to a
 * third of TPC-H Q13's and Q18's host time at SF 10. A block serves a request of at most its size
 * and at least seven eighths of it (the smallest such block, most recently freed first), so a
 * repeated query gets its own blocks back and no buffer holds more than an eighth of slack. Not
 * thread-safe: {@link DeviceMemory} guards it.
 */
final class DeviceBlockCache {
    /** Blocks are whole multiples of this: cuMemAlloc aligns allocations to 512 bytes or more anyway. */
    static final long GRAIN = 512;

    /** A block: its pointer and address, its bytes, and the stamp of the free that kept it. */
    record Block(CUdeviceptr pointer, long address, long capacity, long freedAt) { }

    private final TreeMap<Long, ArrayDeque<Block>> bySize = new TreeMap<>();
    private long bytes;

    /** The bytes of the block a request of {@code bytes} allocates: rounded up to the grain. */
    static long blockSize(long bytes) {
        return Math.max(GRAIN, (bytes + GRAIN - 1) / GRAIN * GRAIN);
    }

    /** Bytes of the blocks kept. */
    long bytes() {
        return bytes;
    }

    /** The smallest kept block that serves a request for a block of {@code size} bytes; null if none. */
    Block take(long size) {
        Map.Entry<Long, ArrayDeque<Block>> e = bySize.ceilingEntry(size);
        if (e == null || e.getKey() - size > e.getKey() / 8) {
            return null;
        }
        Block b = e.getValue().pollLast();
        forget(b);
        return b;
    }

    void put(Block b) {
        bySize.computeIfAbsent(b.capacity(), c -> new ArrayDeque<>()).addLast(b);
        bytes += b.capacity();
    }

    /** A block of the largest size kept, taken out to be freed; null if none. */
    Block evict() {
        if (bySize.isEmpty()) {
            return null;
        }
        Block b = bySize.lastEntry().getValue().pollFirst();
        forget(b);
        return b;
    }

    private void forget(Block b) {
        bytes -= b.capacity();
        if (bySize.get(b.capacity()).isEmpty()) {
            bySize.remove(b.capacity());
        }
    }
}
