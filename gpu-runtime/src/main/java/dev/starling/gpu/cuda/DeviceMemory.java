package dev.starling.gpu.cuda;

import java.util.concurrent.atomic.LongAdder;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUpointer_attribute;
import jcuda.driver.JCudaDriver;

/**
 * Device memory under a budget. An allocation that would pass the budget first frees blocks kept
 * for reuse, then asks the {@link Reclaimer} (the column cache) to free cached memory, then fails
 * with {@link GpuOutOfMemoryException}, which sends the work to the CPU. A closed buffer's block
 * is kept ({@link DeviceBlockCache}) for the next allocation it fits instead of being freed, so a
 * query repeated does not map and unmap its buffers on every run; kept blocks count against the
 * budget. {@link #used} counts the bytes of open buffers, so tests can check that a
 * query leaves it where it found it.
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
    private final DeviceBlockCache kept = new DeviceBlockCache();
    private long used;
    /** Frees so far: each kept block is stamped with its free's number. */
    private long frees;
    /**
     * Blocks stamped up to this were freed before the device last went idle under this allocator's
     * eyes: no work queued before their buffers closed can still touch them.
     */
    private long idleThrough;
    private Reclaimer reclaimer = bytes -> 0;
    private final LongAdder copiedToDevice = new LongAdder();
    private final LongAdder copiedToHost = new LongAdder();

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

    /** Bytes of the device buffers open now (of their whole blocks). */
    public synchronized long used() {
        return used;
    }

    /** Bytes of device blocks kept for reuse, no buffer's now. */
    public synchronized long kept() {
        return kept.bytes();
    }

    /** Bytes copied from host memory into this memory's buffers so far (over PCIe; mapped host memory read in place is not counted). */
    public long copiedToDevice() {
        return copiedToDevice.sum();
    }

    /** Bytes copied from this memory's buffers to host memory so far. */
    public long copiedToHost() {
        return copiedToHost.sum();
    }

    void copied(boolean toDevice, long bytes) {
        (toDevice ? copiedToDevice : copiedToHost).add(bytes);
    }

    /**
     * The bytes an allocation could still take under the budget (kept blocks, which it would
     * free, included), having first evicted cached data no one is using, up to what {@code wanted}
     * bytes would need.
     */
    public long available(long wanted) {
        long missing;
        synchronized (this) {
            missing = used + wanted - budget;
        }
        if (missing > 0) {
            // as in makeRoom(): the reclaimer takes the cache's lock, so never hold this one meanwhile
            reclaimer.reclaim(missing);
        }
        synchronized (this) {
            return Math.max(0, budget - used);
        }
    }

    /** Allocates {@code bytes} of device memory (uninitialized); {@code what} names it in errors. */
    public DeviceBuffer allocate(long bytes, String what) {
        long size = Math.max(bytes, MIN_BYTES);
        long capacity = DeviceBlockCache.blockSize(size);
        DeviceBlockCache.Block block;
        long stamp;
        synchronized (this) {
            block = kept.take(capacity);
            stamp = frees;
            if (block != null) {
                used += block.capacity();
            }
        }
        if (block != null) {
            try {
                // the calling thread may not have the context yet: the buffer's users expect it to
                device.makeCurrent();
                if (block.freedAt() > idleThrough()) {
                    awaitIdle(stamp);
                }
            } catch (RuntimeException e) {
                synchronized (this) {
                    used -= block.capacity();
                    kept.put(block);
                }
                throw e;
            }
            return new DeviceBuffer(this, block.pointer(), size, block.capacity(), block.address());
        }
        reserve(capacity, what);
        try {
            device.makeCurrent();
            CUdeviceptr pointer = new CUdeviceptr();
            String call = "cuMemAlloc(" + capacity + " bytes for " + what + ")";
            try {
                Cuda.check(JCudaDriver.cuMemAlloc(pointer, capacity), call);
            } catch (GpuOutOfMemoryException driverFull) {
                // the device itself is full (other processes, the driver): kept blocks may be what holds it
                freeKept();
                Cuda.check(JCudaDriver.cuMemAlloc(pointer, capacity), call);
            }
            long[] address = new long[1];
            Cuda.check(JCudaDriver.cuPointerGetAttribute(Pointer.to(address),
                    CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_POINTER, pointer), "cuPointerGetAttribute");
            return new DeviceBuffer(this, pointer, size, capacity, address[0]);
        } catch (RuntimeException e) {
            release(capacity);
            throw e;
        }
    }

    /**
     * A buffer holding a copy of the {@code bytes} bytes of host memory at {@code source}
     * ({@code what} names it in errors); nothing stays allocated if the copy fails.
     */
    public DeviceBuffer upload(Pointer source, long bytes, String what) {
        DeviceBuffer b = allocate(bytes, what);
        try {
            b.upload(source, 0, bytes);
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    /**
     * Counts {@code bytes} of device memory allocated outside {@link #allocate} (through virtual
     * memory management) against the budget, making room first as allocate does; throws
     * {@link GpuOutOfMemoryException} past the budget. {@link #refund} gives it back.
     */
    public void charge(long bytes, String what) {
        reserve(bytes, what);
    }

    public void refund(long bytes) {
        release(bytes);
    }

    /** Frees every kept block (the device is closing, or someone else needs its memory). */
    public void freeKept() {
        freeKeptFor(Long.MAX_VALUE);
    }

    private void reserve(long size, String what) {
        if (tryReserve(size)) {
            return;
        }
        makeRoom(size);
        synchronized (this) {
            if (used + kept.bytes() + size > budget) {
                throw new GpuOutOfMemoryException("GPU memory budget exceeded: " + what + " needs " + size
                        + " bytes, " + used + " of " + budget + " are in use");
            }
            used += size;
        }
    }

    private synchronized boolean tryReserve(long size) {
        if (used + kept.bytes() + size <= budget) {
            used += size;
            return true;
        }
        return false;
    }

    /**
     * Frees kept blocks, then cached data, then the blocks that freed, until {@code bytes} fit
     * under the budget or nothing is left to free. Reclaiming takes the column cache's lock, which
     * may close buffers: this lock is never held meanwhile.
     */
    private void makeRoom(long bytes) {
        freeKeptFor(bytes);
        long missing;
        synchronized (this) {
            missing = used + kept.bytes() + bytes - budget;
        }
        if (missing > 0) {
            reclaimer.reclaim(missing);
            // the reclaimed buffers came back as kept blocks
            freeKeptFor(bytes);
        }
    }

    /** Frees kept blocks, largest first, until {@code bytes} fit beside what is held or none is left. */
    private void freeKeptFor(long bytes) {
        while (freeOneKept(bytes)) {
            // each call frees one block
        }
    }

    /** Frees the largest kept block if {@code bytes} do not fit beside what is held; returns whether it did. */
    private boolean freeOneKept(long bytes) {
        DeviceBlockCache.Block b;
        synchronized (this) {
            if (budget - used - kept.bytes() >= bytes) {
                return false;
            }
            b = kept.evict();
            if (b == null) {
                return false;
            }
            // counted as used until the driver has it back, so no allocation counts on it meanwhile
            used += b.capacity();
        }
        try {
            device.makeCurrent();
            Cuda.check(JCudaDriver.cuMemFree(b.pointer()), "cuMemFree");
        } finally {
            release(b.capacity());
        }
        return true;
    }

    private synchronized long idleThrough() {
        return idleThrough;
    }

    /**
     * Waits until the device has done all work queued so far, so that blocks freed up to
     * {@code stamp} may be written: a buffer may close while a stream of its own (a column upload,
     * a co-processing run) still has work on it queued, which cuMemFree used to wait for.
     */
    private void awaitIdle(long stamp) {
        device.makeCurrent();
        Cuda.check(JCudaDriver.cuCtxSynchronize(), "device work before reusing a freed block");
        synchronized (this) {
            idleThrough = Math.max(idleThrough, stamp);
        }
    }

    private synchronized void release(long size) {
        used -= size;
    }

    /** Called once per buffer, by its close(). */
    synchronized void free(DeviceBuffer buffer) {
        used -= buffer.heldBytes();
        kept.put(new DeviceBlockCache.Block(buffer.pointer(), buffer.address(), buffer.heldBytes(), ++frees));
    }
}
