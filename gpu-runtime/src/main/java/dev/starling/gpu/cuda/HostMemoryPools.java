package dev.starling.gpu.cuda;

/**
 * How much pinned host memory a device keeps for reuse once released, since pinning fresh memory
 * costs 0.1–0.2 s per gigabyte: {@code pinnedKeepBytes} of chunks for the host parts of mapped
 * ranges, {@code mappedKeepBytes} of mapped buffers for build keys and shared tables.
 */
public record HostMemoryPools(long pinnedKeepBytes, long mappedKeepBytes) {
    public static final HostMemoryPools DEFAULT = new HostMemoryPools(4L << 30, 2L << 30);

    public HostMemoryPools {
        if (pinnedKeepBytes < 0 || mappedKeepBytes < 0) {
            throw new IllegalArgumentException("pinned memory to keep cannot be negative");
        }
    }
}
