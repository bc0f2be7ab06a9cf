package dev.starling.gpu.cuda;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the planner knows of a GPU: its memory, multiprocessors, shared memory per block and banks,
 * and the rates its cost models divide by. Taken from the detected device (its properties, and the
 * rates of the built-in profile of its model), or named ({@code gpu.profile}), so that a machine
 * without that GPU, CI among them, plans and explains exactly as the GPU host would.
 *
 * <p>The H100's rates were measured on the GPU host (docs/BENCHMARKS.md): device memory by a
 * device-to-device copy, the link by kernels reading pinned host memory (zero-copy), probes by
 * HybridProbeBenchMain into a 512 MB table on the device and on the host. The other profiles scale
 * the H100's measured share of its datasheet bandwidth to their own datasheets: they are estimates
 * until measured.
 *
 * @param deviceBytesPerSecond device memory bandwidth (read + write, as a copy counts it)
 * @param linkBytesPerSecond   bytes per second kernels read from pinned host memory over the link
 * @param deviceProbesPerSecond random probes per second into a hash table in device memory
 * @param hostProbesPerSecond  random probes per second into a hash table in pinned host memory
 */
public record DeviceProfile(String name, long memoryBytes, int multiprocessors, int sharedMemoryPerBlock,
                            BankGeometry banks, double deviceBytesPerSecond, double linkBytesPerSecond,
                            double deviceProbesPerSecond, double hostProbesPerSecond) {

    /** The H100's measured device bandwidth over its datasheet's 3.35 TB/s, for the estimated profiles. */
    private static final double MEASURED_SHARE = 2.99 / 3.35;

    public static final DeviceProfile H100_80GB = new DeviceProfile("h100-80gb", 80L << 30, 132, 227 << 10,
            BankGeometry.DEFAULT, 2.99e12, 51e9, 22.3e9, 0.385e9);
    public static final DeviceProfile H200_141GB = estimated("h200-141gb", 141L * 1_000_000_000, 132, 227 << 10, 4.8e12, 51e9);
    public static final DeviceProfile A100_80GB = estimated("a100-80gb", 80L << 30, 108, 163 << 10, 2.039e12, 25e9);

    private static final Map<String, DeviceProfile> BUILT_IN = new LinkedHashMap<>();

    static {
        for (DeviceProfile p : new DeviceProfile[] {H100_80GB, H200_141GB, A100_80GB}) {
            BUILT_IN.put(p.name, p);
        }
    }

    public DeviceProfile {
        if (memoryBytes <= 0 || multiprocessors <= 0 || sharedMemoryPerBlock <= 0 || !(deviceBytesPerSecond > 0)
                || !(linkBytesPerSecond > 0) || !(deviceProbesPerSecond > 0) || !(hostProbesPerSecond > 0)) {
            throw new IllegalArgumentException("a device profile's sizes and rates are positive: " + name);
        }
    }

    /** A profile whose rates scale the H100's measurements by datasheet bandwidths (device and link). */
    private static DeviceProfile estimated(String name, long memory, int sms, int shared, double datasheetBytes,
                                           double linkBytes) {
        double device = datasheetBytes * MEASURED_SHARE;
        return new DeviceProfile(name, memory, sms, shared, BankGeometry.DEFAULT, device, linkBytes,
                H100_80GB.deviceProbesPerSecond * device / H100_80GB.deviceBytesPerSecond,
                H100_80GB.hostProbesPerSecond * linkBytes / H100_80GB.linkBytesPerSecond);
    }

    /** The built-in profile {@code name} (case-insensitive); an unknown name says which there are. */
    public static DeviceProfile named(String name) {
        DeviceProfile p = BUILT_IN.get(name.trim().toLowerCase(Locale.ROOT));
        if (p == null) {
            throw new IllegalArgumentException("unknown GPU profile '" + name + "': the profiles are "
                    + String.join(", ", BUILT_IN.keySet()));
        }
        return p;
    }

    /**
     * The profile of a detected device: its own sizes, and the rates of the built-in profile whose
     * model its name contains (an H100's for an unknown model, which {@code gpu.profile} can override).
     */
    public static DeviceProfile detected(String deviceName, long memoryBytes, int multiprocessors,
                                         int sharedMemoryPerBlock, BankGeometry banks) {
        DeviceProfile rates = model(deviceName).orElse(H100_80GB);
        return new DeviceProfile(rates.name, memoryBytes, multiprocessors, sharedMemoryPerBlock, banks,
                rates.deviceBytesPerSecond, rates.linkBytesPerSecond, rates.deviceProbesPerSecond,
                rates.hostProbesPerSecond);
    }

    /** The built-in profile of a device model ("NVIDIA H100 80GB HBM3" is an H100), if there is one. */
    static Optional<DeviceProfile> model(String deviceName) {
        String upper = deviceName.toUpperCase(Locale.ROOT);
        return BUILT_IN.values().stream()
                .filter(p -> upper.contains(p.name.substring(0, p.name.indexOf('-')).toUpperCase(Locale.ROOT)))
                .findFirst();
    }

    /** The device memory budget planned with when no device is open: nine tenths, as {@code GpuDevice} leaves by default. */
    public long defaultBudget() {
        return memoryBytes / 10 * 9;
    }

    public String describe() {
        return String.format("%s (%.0f GiB, %d SMs, %d KB shared memory a block, %.2f TB/s device memory, %.0f GB/s link)",
                name, memoryBytes / (double) (1L << 30), multiprocessors, sharedMemoryPerBlock >> 10,
                deviceBytesPerSecond / 1e12, linkBytesPerSecond / 1e9);
    }
}
