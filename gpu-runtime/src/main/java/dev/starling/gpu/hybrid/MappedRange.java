package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.VirtualMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * One contiguous device address range over device memory followed by pinned host memory, through
 * CUDA virtual memory management (reserve a range, create a device and a host allocation, map
 * both, grant the device access): kernels index it as one array and each page is read where it
 * lives. The device part counts against the memory budget. Drivers before CUDA 12.2 refuse host
 * allocations here: {@link #create} then throws and the caller falls back to two ranges.
 */
final class MappedRange implements AutoCloseable {
    private final GpuDevice device;
    private final List<Long> handles = new ArrayList<>();
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
        long hostGrain = VirtualMemory.granularity(VirtualMemory.ON_HOST, 0);
        deviceBytes = Math.min(wanted, bytes) / deviceGrain * deviceGrain;
        long hostBytes = (bytes - deviceBytes + hostGrain - 1) / hostGrain * hostGrain;
        long alignment = Math.max(deviceGrain, hostGrain);
        long total = (deviceBytes + hostBytes + alignment - 1) / alignment * alignment;
        base = VirtualMemory.reserve(total, alignment);
        reserved = total;
        if (deviceBytes > 0) {
            device.memory().charge(deviceBytes, "hybrid table, device part");
            charged = deviceBytes;
            mapPart(VirtualMemory.ON_DEVICE, ordinal, 0, deviceBytes);
        }
        mapPart(VirtualMemory.ON_HOST, 0, deviceBytes, total - deviceBytes);
        VirtualMemory.grantReadWrite(base, total, ordinal);
    }

    private void mapPart(int location, int id, long offset, long bytes) {
        long handle = VirtualMemory.create(bytes, location, id);
        handles.add(handle);
        VirtualMemory.map(base + offset, bytes, handle);
        mapped = offset + bytes;
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
            for (long h : handles) {
                VirtualMemory.release(h);
            }
            if (reserved > 0) {
                VirtualMemory.free(base, reserved);
            }
        } finally {
            handles.clear();
            mapped = 0;
            reserved = 0;
            if (charged > 0) {
                device.memory().refund(charged);
                charged = 0;
            }
        }
    }
}
