package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.hybrid.PartitionedJoin;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On the GPU host: the partitioned join finds, for every probe row, the build row of its key (or
 * none: a missing key, a NULL on either side) exactly as a hash map does, whether its partitions all stay in
 * device memory or mostly spill to host memory, for 8- and 4-byte probe keys; device memory
 * returns to its baseline.
 */
@Tag("gpu")
class GpuPartitionedJoinTest {
    private static final int BUILD_ROWS = 300_000;
    private static final int PROBE_ROWS = 2_000_000;

    @ParameterizedTest
    @CsvSource({"8, 268435456, false", "8, 4194304, true", "4, 4194304, true"})
    void matchesWhatAHashMapFinds(int width, long allowance, boolean spills) {
        GpuDevice device = GpuDevices.openOrSkip(0);
        SplittableRandom random = new SplittableRandom(11);
        long bound = width == 4 ? Integer.MAX_VALUE : Long.MAX_VALUE / 2;
        long[] build = random.longs(BUILD_ROWS * 2L, -bound, bound).distinct().limit(BUILD_ROWS).toArray();
        // one build row in a hundred has a NULL key, which nothing matches (its value repeats another's)
        boolean[] buildNulls = new boolean[build.length];
        Map<Long, Integer> rowOf = new HashMap<>();
        for (int r = 0; r < build.length; r++) {
            buildNulls[r] = r % 100 == 99;
            if (buildNulls[r]) {
                build[r] = build[r - 1];
            } else {
                rowOf.put(build[r], r);
            }
        }
        long[] probe = new long[PROBE_ROWS];
        byte[] nulls = new byte[PROBE_ROWS];
        int[] expected = new int[PROBE_ROWS];
        for (int i = 0; i < PROBE_ROWS; i++) {
            // most probes hit, some miss, one in fifty is NULL
            probe[i] = i % 7 == 0 ? random.nextLong(-bound, bound) : build[random.nextInt(build.length)];
            nulls[i] = (byte) (i % 50 == 0 ? 1 : 0);
            expected[i] = nulls[i] == 1 ? -1 : rowOf.getOrDefault(probe[i], -1);
        }
        try (device; DeviceBuffer keys = device.memory().allocate((long) width * PROBE_ROWS, "probe keys");
             DeviceBuffer flags = device.memory().allocate(PROBE_ROWS, "probe nulls");
             DeviceBuffer matches = device.memory().allocate(4L * PROBE_ROWS, "matches")) {
            keys.upload(width == 4 ? Pointer.to(java.util.Arrays.stream(probe).mapToInt(v -> (int) v).toArray())
                    : Pointer.to(probe), 0, (long) width * PROBE_ROWS);
            flags.upload(Pointer.to(nulls), 0, PROBE_ROWS);
            long baseline = device.memory().used();
            PartitionedJoin.Stats stats = PartitionedJoin.run(device,
                    new PartitionedJoin.ProbeKeys(keys.address(), flags.address(), width, PROBE_ROWS),
                    new PartitionedJoin.BuildKeys(build, buildNulls, build.length), allowance, matches);
            int[] actual = new int[PROBE_ROWS];
            matches.download(Pointer.to(actual), 4L * PROBE_ROWS);
            assertArrayEquals(expected, actual);
            assertEquals(spills, stats.spilledBytes() > 0, "partitions spilled to host memory: " + stats);
            assertTrue(stats.partitions() >= 2, "partitions: " + stats);
            assertEquals(baseline, device.memory().used(), "device memory back to its baseline");
        }
    }
}
