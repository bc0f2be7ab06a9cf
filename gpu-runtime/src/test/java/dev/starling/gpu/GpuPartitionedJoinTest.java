package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.hybrid.PartitionedJoin;
import dev.starling.storage.Hashing;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On the GPU host: the partitioned join finds, for every probe row, the build row of its key (or
 * none: a missing key, a NULL on either side) exactly as a hash map does, whether its partitions
 * all stay in device memory or mostly spill to host memory, for 8- and 4-byte probe keys, and
 * under skew on both sides: build keys whose hashes share their top bits crowd one sub-partition
 * past a shared-memory table, and half the probes ask for one key; device memory returns to its
 * baseline.
 */
@Tag("gpu")
class GpuPartitionedJoinTest {
    private static final int BUILD_ROWS = 300_000;
    private static final int PROBE_ROWS = 2_000_000;
    /**
     * Build keys crafted to share their hash's top 12 bits: more than one table's worth in one
     * sub-partition (both passes take 8 bits for 300,000 keys), over 128 of its buckets.
     */
    private static final int CROWDED = 5_000;
    /** The inverse of the join's hash multiplier modulo 2^64: key = hash * this. */
    private static final long UNHASH = inverse(Hashing.MULTIPLIER);

    @ParameterizedTest
    @CsvSource({"8, 268435456, false, false", "8, 4194304, true, false", "4, 4194304, true, false",
            "8, 4194304, true, true", "8, 268435456, false, true"})
    void matchesWhatAHashMapFinds(int width, long allowance, boolean spills, boolean skewed) {
        GpuDevice device = GpuDevices.openOrSkip(0);
        SplittableRandom random = new SplittableRandom(11);
        long bound = width == 4 ? Integer.MAX_VALUE : Long.MAX_VALUE / 2;
        long[] build = random.longs(BUILD_ROWS * 2L, -bound, bound).distinct().limit(BUILD_ROWS).toArray();
        if (skewed) {
            long top = random.nextLong() & 0xFFF0000000000000L;
            for (int r = 0; r < CROWDED; r++) {
                build[r] = (top | (random.nextLong() >>> 12)) * UNHASH;
            }
            assertEquals(BUILD_ROWS, Arrays.stream(build).distinct().count(), "crafted keys are unique");
        }
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
            // most probes hit, some miss, one in fifty is NULL; skewed, half ask for one crowded key
            probe[i] = skewed && i % 2 == 1 ? build[7]
                    : i % 7 == 0 ? random.nextLong(-bound, bound) : build[random.nextInt(build.length)];
            nulls[i] = (byte) (i % 50 == 0 ? 1 : 0);
            expected[i] = nulls[i] == 1 ? -1 : rowOf.getOrDefault(probe[i], -1);
        }
        try (device; DeviceBuffer keys = device.memory().allocate((long) width * PROBE_ROWS, "probe keys");
             DeviceBuffer flags = device.memory().allocate(PROBE_ROWS, "probe nulls");
             DeviceBuffer matches = device.memory().allocate(4L * PROBE_ROWS, "matches")) {
            keys.upload(width == 4 ? Pointer.to(Arrays.stream(probe).mapToInt(v -> (int) v).toArray())
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
            assertTrue(stats.partitions() >= 2 && stats.subpartitions() > stats.partitions(), "partitions: " + stats);
            assertTrue(!spills || stats.batches() >= 2, "batches pipelined over two work buffers: " + stats);
            assertEquals(baseline, device.memory().used(), "device memory back to its baseline");
        }
    }

    /** The inverse of odd {@code a} modulo 2^64, by Newton's iteration (each step doubles the correct bits). */
    private static long inverse(long a) {
        long x = a;
        for (int i = 0; i < 6; i++) {
            x *= 2 - a * x;
        }
        return x;
    }
}
