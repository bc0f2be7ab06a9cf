package dev.starling.gpu.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUpointer_attribute;
import jcuda.driver.JCudaDriver;

/**
 * Device memory under a budget. An allocation that would pass the budget first asks the
 * {@link Reclaimer} (the column cache) to free cached memory, then fails with
 * {@link GpuOutOfMemoryException}, which sends the work to the CPU. {@link #used} counts the bytes
 * held, so tests can check that a query leaves it where it found it.
 */
public final class DeviceMemory {

    /** Frees memory held for reuse (cached columns) when an allocation needs room. */
    public interface Reclaimer {
        /** Frees at least {@code bytes} if it can; returns the bytes freed. */
        long reclaim(long bytes);
    }

    /** cuMemAlloc rejects empty allocations; empty buffers take this much. */
    private static final long MIN_BYTES = 8;

    private final GpuDevice device;
    private final long budget;
    private long used;
    private Reclaimer reclaimer = bytes -> 0;

    DeviceMemory(GpuDevice device, long budget) {
        this.device = device;
        this.budget = budget;
    }

    public void setReclaimer(Reclaimer reclaimer) {
        this.reclaimer = reclaimer;
    }

    public long budget() {
        return budget;
    }

    public synchronized long used() {
        return used;
    }

    /**
     * The bytes an allocation could still take under the budget, having first evicted cached data
     * no one is using, up to what {@code wanted} bytes would need.
     */
    public long available(long wanted) {
        long free;
        synchronized (this) {
            free = budget - used;
        }
        if (free < wanted) {
            // as in reserve(): the reclaimer takes the cache's lock, so never hold this one meanwhile
            reclaimer.reclaim(wanted - free);
        }
        synchronized (this) {
            return Math.max(0, budget - used);
        }
    }

    /** Allocates {@code bytes} of device memory (uninitialized); {@code what} names it in errors. */
    public DeviceBuffer allocate(long bytes, String what) {
        long size = Math.max(bytes, MIN_BYTES);
        reserve(size, what);
        try {
            device.makeCurrent();
            CUdeviceptr pointer = new CUdeviceptr();
            Cuda.check(JCudaDriver.cuMemAlloc(pointer, size), "cuMemAlloc(" + size + " bytes for " + what + ")");
            long[] address = new long[1];
            Cuda.check(JCudaDriver.cuPointerGetAttribute(Pointer.to(address),
                    CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_POINTER, pointer), "cuPointerGetAttribute");
            return new DeviceBuffer(this, pointer, size, address[0]);
        } catch (RuntimeException e) {
            release(size);
            throw e;
        }
    }

    /**
     * Counts {@code bytes} of device memory allocated outside {@link #allocate} (through virtual
     * memory management) against the budget, evicting cached data first as allocate does; throws
     * {@link GpuOutOfMemoryException} past the budget. {@link #refund} gives it back.
     */
    public void charge(long bytes, String what) {
        reserve(bytes, what);
    }

    public void refund(long bytes) {
        release(bytes);
    }

    private void reserve(long size, String what) {
        synchronized (this) {
            if (used + size <= budget) {
                used += size;
                return;
            }
        }
        // Reclaiming takes the cache's lock, which may call free(): never hold this lock meanwhile.
        reclaimer.reclaim(size);
        synchronized (this) {
            if (used + size > budget) {
                throw new GpuOutOfMemoryException("GPU memory budget exceeded: " + what + " needs " + size
                        + " bytes, " + used + " of " + budget + " are in use");
            }
            used += size;
        }
    }

    private synchronized void release(long size) {
        used -= size;
    }

    void free(DeviceBuffer buffer) {
        device.makeCurrent();
        try {
            Cuda.check(JCudaDriver.cuMemFree(buffer.pointer()), "cuMemFree");
        } finally {
            release(buffer.bytes());
        }
    }
}
