package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.hybrid.SplitTable;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.storage.DataType;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On the GPU host: a hash table split between device memory and host memory finds exactly the
 * keys it holds wherever the split falls (all on the device, about half, none), in one address
 * range (virtual memory mapping) and in two, and gives its device memory back.
 */
@Tag("gpu")
class GpuSplitTableTest {
    @Test
    void findsTheSameKeysWhereverTheSplitFalls() {
        GpuDevice device = GpuDevices.openOrSkip(0);
        // large enough that half of it spans several 2 MB device pages
        int keys = 400_003;
        long[] tableKeys = new SplittableRandom(3).longs(keys, -1_000_000_000L, 1_000_000_000L).distinct().toArray();
        DimensionHashTable table = DimensionHashTable.build(Vector.ofLongs(DataType.BIGINT, tableKeys, null),
                tableKeys.length).orElseThrow();
        Set<Long> present = new HashSet<>();
        for (long k : tableKeys) {
            present.add(k);
        }
        long[] probes = new SplittableRandom(4).longs(1_000_000, -1_000_000_000L, 1_000_000_000L).toArray();
        for (int i = 0; i < probes.length; i += 3) {
            probes[i] = tableKeys[i % tableKeys.length];
        }
        long expected = java.util.Arrays.stream(probes).filter(present::contains).count();
        long tableBytes = table.slots().length * 8L;
        try (device; DeviceBuffer probeKeys = device.memory().allocate(8L * probes.length, "probe keys");
             DeviceBuffer hits = device.memory().allocate(8, "hits")) {
            probeKeys.upload(Pointer.to(probes), 0, 8L * probes.length);
            long baseline = device.memory().used();
            for (SplitTable.Layout layout : SplitTable.Layout.values()) {
                for (long deviceBytes : new long[] {tableBytes, tableBytes / 2 + 8, 0}) {
                    try (SplitTable split = SplitTable.place(device, table.slots(), table.shift(), deviceBytes, layout)) {
                        assertEquals(expected, split.count(probeKeys, probes.length, hits),
                                layout + ", " + deviceBytes + " bytes on the device");
                        if (layout == SplitTable.Layout.CONTIGUOUS && deviceBytes == tableBytes / 2 + 8) {
                            assertTrue(split.contiguous(), "this driver maps device and host memory into one range");
                            assertTrue(split.slotsOnDevice() > 0, "the device holds part of the table");
                        }
                    }
                    assertEquals(baseline, device.memory().used(), "device memory back to its baseline");
                }
            }
        }
    }
}
