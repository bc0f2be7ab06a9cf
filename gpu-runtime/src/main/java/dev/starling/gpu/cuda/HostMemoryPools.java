package dev.starling.gpu.cuda;

/**
 * How much pinned host memory a device keeps for reuse once released, since pinning fresh memory
 * costs 0.1–0.2 s per gigabyte: {@code pinnedKeepBytes} of chunks for the host parts of mapped
 * ranges, {@code mappedKeepBytes} of mapped buffers for build keys and shared tables; and
 * {@code pinnedTableBytes}, how much of the tables' own memory may be page-locked in place
 * ({@link HostRegistrations}) so that scans stream it at the link's speed.
 */
public record HostMemoryPools(long pinnedKeepBytes, long mappedKeepBytes, long pinnedTableBytes) {
    public static final HostMemoryPools DEFAULT = new HostMemoryPools(4L << 30, 2L << 30, 32L << 30);

    public HostMemoryPools {
        if (pinnedKeepBytes < 0 || mappedKeepBytes < 0 || pinnedTableBytes < 0) {
            throw new IllegalArgumentException("pinned memory to keep cannot be negative");
        }
    }
}
