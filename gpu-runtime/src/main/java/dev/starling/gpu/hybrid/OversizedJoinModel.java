package dev.starling.gpu.hybrid;

import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.cuda.KernelStructs;

/**
 * How a GPU hash join whose table is past the device memory budget runs, and the model behind the
 * choice, with the device's rates from its {@link DeviceProfile} and the costs above them measured
 * on the H100 over PCIe 5 (docs/BENCHMARKS.md, 2026-11-23 and -24).
 *
 * <p>A hybrid table with share A of its slots on the device: Lutz's thesis (§3.4.3) predicts A·G +
 * (1−A)·C probes per second, G and C the rates with the table all on the device or all on the
 * host. That averages rates where per-probe times add: on the H100, where G is 58 times C, the
 * measured rate follows 1 / (A/G + (1−A)/C) within 12% while A·G + (1−A)·C overestimates it 10
 * to 19 times. So hybrid joins are predicted by the time model, plus placing the table (uploading
 * its device part, copying the rest into pinned host memory), which the partitioned join does not
 * do; EXPLAIN shows both.
 *
 * <p>A partitioned join leaves per probe row the build row it matched, in device memory (4 bytes
 * a probe row: written at random, which host memory would take one small write at a time), so it
 * runs only where those fit in the device memory left beside its two work buffers at the most
 * first-pass partitions. Its floor: each build key crosses the link twice (the first pass's
 * histogram and scatter read it in place), each spilled tuple three times (written by the first
 * pass, read by the second pass's histogram and scatter), and device memory is streamed a few
 * times per row. The model adds what OversizedJoinBenchMain measured on top of that floor:
 * pinning and filling host memory for the build keys, and a cost per tuple of the two passes and
 * the join. With these rates the partitioned join is predicted faster at 2x and 4x the budget, as
 * measured (docs/BENCHMARKS.md, 2026-11-24).
 */
public final class OversizedJoinModel {
    /** Bytes of a partition tuple (key, row). */
    static final long TUPLE_BYTES = KernelStructs.TUPLE.bytes();
    /** Device bytes per probe row of a partitioned join beside its tuples: its key read twice (8 bytes at most), its match cleared, written and read. */
    static final long PROBE_ROW_DEVICE_BYTES = 16 + 12;

    /** Seconds per build row of filling pooled pinned host memory with the build keys (measured: 1.3-1.6 ns). */
    static final double BUILD_KEY_SECONDS = 1.5e-9;
    /** Seconds per tuple of partitioning and joining above the floor (measured at 32 and 64 first-pass partitions: 0.15 and 0.37 ns). */
    static final double TUPLE_SECONDS = 0.25e-9;
    /**
     * Bytes per second of placing a hash table built on the host before a hybrid join probes it:
     * uploading its device part from the Java heap, copying the rest into pinned host memory
     * (OversizedJoinBenchMain: 70-90 ms for a 512 MB table at 2x and 4x the budget).
     */
    static final double PLACE_BYTES = 6.5e9;

    private final DeviceProfile device;

    public OversizedJoinModel(DeviceProfile device) {
        this.device = device;
    }

    /** The choice and why, for EXPLAIN and the log. */
    public record Choice(boolean partitioned, String reason) { }

    /** The thesis' prediction for a hybrid table with {@code share} of it on the device, probes per second. */
    public double linearProbes(double share) {
        return share * device.deviceProbesPerSecond() + (1 - share) * device.hostProbesPerSecond();
    }

    /** The time model's prediction for the same, probes per second. */
    public double hybridProbes(double share) {
        return 1 / (share / device.deviceProbesPerSecond() + (1 - share) / device.hostProbesPerSecond());
    }

    /** Whether a partitioned join's matches fit {@code deviceBytes} with room for its work buffers at the most partitions. */
    public static boolean partitionedFits(long probeRows, long buildRows, long deviceBytes) {
        return 4 * probeRows + PartitionedJoin.minimumAllowance(buildRows) <= deviceBytes;
    }

    /**
     * Seconds of a partitioned join of {@code probeRows} against {@code buildRows} keys with
     * {@code deviceBytes} of device memory: its matches take theirs, its two work buffers a
     * {@value PartitionedJoin#BATCHES}th of the tuples each, up to all the rest, the first pass's
     * partitions ({@value #TUPLE_BYTES} bytes a row of either side) what remains, and they spill
     * the rest; the floor of those bytes plus the measured costs above it.
     */
    public double partitionedSeconds(long probeRows, long buildRows, long deviceBytes) {
        long joinBytes = Math.max(0, deviceBytes - 4 * probeRows);
        long tuples = probeRows + buildRows;
        long workBytes = Math.min(joinBytes, 2 * tuples * TUPLE_BYTES / PartitionedJoin.BATCHES);
        long spilled = Math.max(0, tuples - (joinBytes - workBytes) / TUPLE_BYTES);
        double link = 16.0 * buildRows + 3.0 * TUPLE_BYTES * spilled;
        double onDevice = (double) PROBE_ROW_DEVICE_BYTES * probeRows + 3.0 * TUPLE_BYTES * (tuples - spilled)
                + 2.0 * TUPLE_BYTES * tuples;
        double measured = BUILD_KEY_SECONDS * buildRows + TUPLE_SECONDS * tuples;
        return link / device.linkBytesPerSecond() + onDevice / device.deviceBytesPerSecond() + measured;
    }

    /**
     * How a join of {@code probeRows} against a {@code tableBytes} table of {@code buildRows} keys
     * runs when {@code deviceBytes} of device memory are left for it, under the session's
     * {@code mode}; {@code storedKey}: whether the probe key is a fact column as stored, which the
     * partitioned join partitions (a computed key only a hybrid table serves).
     */
    public Choice choose(OversizedJoin mode, boolean storedKey, long probeRows, long buildRows, long tableBytes,
                                long deviceBytes) {
        double share = Math.min(1, Math.max(0, (double) deviceBytes / tableBytes));
        double placeSeconds = tableBytes / PLACE_BYTES;
        double hybridSeconds = probeRows / hybridProbes(share) + placeSeconds;
        double partitionedSeconds = partitionedSeconds(probeRows, buildRows, deviceBytes);
        boolean fits = partitionedFits(probeRows, buildRows, deviceBytes);
        boolean partitioned = storedKey && fits && switch (mode) {
            case HYBRID -> false;
            case PARTITIONED -> true;
            case AUTO -> partitionedSeconds < hybridSeconds;
        };
        String why;
        if (mode != OversizedJoin.HYBRID && !storedKey) {
            why = "the probe key is computed, which the partitioned join cannot partition";
        } else if (mode != OversizedJoin.HYBRID && !fits) {
            why = String.format("the partitioned join's matches, %.0f MB, and its work buffers do not fit the %.0f MB left",
                    4e-6 * probeRows, deviceBytes / 1e6);
        } else {
            why = mode == OversizedJoin.AUTO ? "predicted faster" : "oversized_join = " + mode.name().toLowerCase();
        }
        return new Choice(partitioned, String.format(
                "hash table %.0f MB past the budget: %s join (%s; predicted: partitioned %.1f ms, hybrid with %.0f%% "
                        + "on the device %.1f ms, placing it %.1f ms and probing at %.0f M probes/s, thesis' "
                        + "A*G+(1-A)*C %.0f M probes/s)",
                tableBytes / 1e6, partitioned ? "partitioned" : "hybrid", why, partitionedSeconds * 1e3, share * 100,
                hybridSeconds * 1e3, placeSeconds * 1e3, hybridProbes(share) / 1e6, linearProbes(share) / 1e6));
    }
}
