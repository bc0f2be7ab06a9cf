package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.VirtualMemory;

/**
 * One contiguous device address range over device memory followed by pinned host memory, through
 * CUDA virtual memory management (reserve a range, create a device and a host allocation, map
 * both, grant the device access): kernels index it as one array and each page is read where it
 * lives. The device part counts against the memory budget; the host part is chunks of the
 * device's pool of pinned host memory, given back on close. Drivers before CUDA 12.2 refuse host
 * allocations here: {@link #create} then throws and the caller falls back to two ranges.
 */
final class MappedRange implements AutoCloseable {
    private final GpuDevice device;
    private long deviceHandle;
    private long[] hostChunks = new long[0];
    private long base;
    private long reserved;
    private long mapped;
    private long deviceBytes;
    private long charged;

    private MappedRange(GpuDevice device) {
        this.device = device;
    }

    /**
     * A range of at least {@code bytes}, its first part in device memory: {@code deviceBytes} at
     * most, rounded down to the device's allocation granularity (so possibly none).
     */
    static MappedRange create(GpuDevice device, long bytes, long deviceBytes) {
        MappedRange r = new MappedRange(device);
        try {
            r.map(bytes, deviceBytes);
            return r;
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    private void map(long bytes, long wanted) {
        device.makeCurrent();
        int ordinal = device.ordinal();
        long deviceGrain = VirtualMemory.granularity(VirtualMemory.ON_DEVICE, ordinal);
        long chunk = device.pinnedChunks().chunkBytes();
        deviceBytes = Math.min(wanted, bytes) / deviceGrain * deviceGrain;
        int chunks = (int) ((bytes - deviceBytes + chunk - 1) / chunk);
        long alignment = Math.max(deviceGrain, chunk);
        long total = (deviceBytes + chunks * chunk + alignment - 1) / alignment * alignment;
        base = VirtualMemory.reserve(total, alignment);
        reserved = total;
        if (deviceBytes > 0) {
            device.memory().charge(deviceBytes, "mapped range, device part");
            charged = deviceBytes;
            deviceHandle = VirtualMemory.create(deviceBytes, VirtualMemory.ON_DEVICE, ordinal);
            VirtualMemory.map(base, deviceBytes, deviceHandle);
            mapped = deviceBytes;
        }
        hostChunks = device.pinnedChunks().take(chunks);
        for (long h : hostChunks) {
            VirtualMemory.map(base + mapped, chunk, h);
            mapped += chunk;
        }
        VirtualMemory.grantReadWrite(base, mapped, ordinal);
    }

    /** Where the range starts. */
    long base() {
        return base;
    }

    /** Bytes at the start of the range that live in device memory. */
    long deviceBytes() {
        return deviceBytes;
    }

    @Override
    public void close() {
        device.makeCurrent();
        try {
            if (mapped > 0) {
                VirtualMemory.unmap(base, mapped);
            }
            if (deviceHandle != 0) {
                VirtualMemory.release(deviceHandle);
            }
            device.pinnedChunks().give(hostChunks);
            if (reserved > 0) {
                VirtualMemory.free(base, reserved);
            }
        } finally {
            deviceHandle = 0;
            hostChunks = new long[0];
            mapped = 0;
            reserved = 0;
            if (charged > 0) {
                device.memory().refund(charged);
                charged = 0;
            }
        }
    }
}
