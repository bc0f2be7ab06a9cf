package dev.starling.engine;

import dev.starling.gpu.cuda.HostMemoryPools;
import dev.starling.gpu.cuda.DeviceProfile;
import java.util.Optional;

/**
 * How an engine uses GPUs: whether at all, which device, its memory budget in bytes (0: most of
 * its free memory), the pinned host memory it keeps for reuse, and the device profile to plan for
 * ({@code null}: the detected device's). A named profile on a machine without that GPU lets
 * EXPLAIN show the plans the GPU host would run; running them there is an error.
 */
public record GpuOptions(boolean enabled, int device, long budgetBytes, HostMemoryPools pools, String profile) {
    public static final GpuOptions DEFAULT = new GpuOptions(true, 0, 0, HostMemoryPools.DEFAULT, null);

    public GpuOptions {
        if (profile != null) {
            DeviceProfile.named(profile);
        }
    }

    /** The profile named to plan for, if one is. */
    public Optional<DeviceProfile> namedProfile() {
        return Optional.ofNullable(profile).map(DeviceProfile::named);
    }

    public GpuOptions withProfile(String name) {
        return new GpuOptions(enabled, device, budgetBytes, pools, name);
    }
}
