package dev.starling.gpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/**
 * Pinned host memory mapped into the device's address space: kernels read it directly over the
 * link (zero-copy), at the link's speed, with no copy beforehand. Pinned fresh, or taken from a
 * {@link MappedHostPool}, to which closing returns it.
 */
public final class MappedHostBuffer implements AutoCloseable {
    private final Allocation allocation;
    private final MemorySegment segment;
    private final long bytes;
    private final Consumer<Allocation> release;
    private boolean closed;

    /** Pins {@code bytes} fresh; closing frees them. */
    public MappedHostBuffer(GpuDevice gpu, long bytes) {
        this(Allocation.pin(gpu, bytes), bytes, Allocation::free);
    }

    MappedHostBuffer(Allocation allocation, long bytes, Consumer<Allocation> release) {
        this.allocation = allocation;
        this.bytes = bytes;
        this.release = release;
        this.segment = allocation.segment.reinterpret(bytes);
    }

    /** Pinned host memory and the device address it is mapped at. */
    record Allocation(Pointer host, DevicePointer device, MemorySegment segment, long bytes) {
        static Allocation pin(GpuDevice gpu, long bytes) {
            gpu.makeCurrent();
            Pointer host = new Pointer();
            Cuda.check(JCudaDriver.cuMemHostAlloc(host, bytes, JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP),
                    "cuMemHostAlloc(" + bytes + " bytes, mapped)");
            DevicePointer device = new DevicePointer();
            try {
                Cuda.check(JCudaDriver.cuMemHostGetDevicePointer(device, host, 0), "cuMemHostGetDevicePointer");
            } catch (RuntimeException e) {
                JCudaDriver.cuMemFreeHost(host);
                throw e;
            }
            // a ByteBuffer view stops at 2 GB, so the segment is made from the address it starts at
            long start = MemorySegment.ofBuffer(host.getByteBuffer(0, 1)).address();
            return new Allocation(host, device, MemorySegment.ofAddress(start).reinterpret(bytes), bytes);
        }

        void free() {
            Cuda.check(JCudaDriver.cuMemFreeHost(host), "cuMemFreeHost");
        }
    }

    /** The memory on the host side, to fill. */
    public MemorySegment segment() {
        return segment;
    }

    /** The memory on the host side, as the driver's copy calls take it. */
    public Pointer hostPointer() {
        return allocation.host();
    }

    /** The address kernels read it at. */
    public CUdeviceptr devicePointer() {
        return allocation.device();
    }

    /** The same, as the number a kernel parameter passes. */
    public long address() {
        return allocation.device().address();
    }

    public long bytes() {
        return bytes;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            release.accept(allocation);
        }
    }
}
