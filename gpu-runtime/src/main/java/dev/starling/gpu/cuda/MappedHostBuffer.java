package dev.starling.gpu.cuda;

import java.lang.foreign.MemorySegment;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/**
 * Pinned host memory mapped into the device's address space: kernels read it directly over the
 * link (zero-copy), at the link's speed, with no copy beforehand.
 */
public final class MappedHostBuffer implements AutoCloseable {
    private final Pointer host = new Pointer();
    private final DevicePointer device = new DevicePointer();
    private final MemorySegment segment;
    private final long bytes;
    private boolean closed;

    public MappedHostBuffer(GpuDevice gpu, long bytes) {
        gpu.makeCurrent();
        this.bytes = bytes;
        Cuda.check(JCudaDriver.cuMemHostAlloc(host, bytes, JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP),
                "cuMemHostAlloc(" + bytes + " bytes, mapped)");
        Cuda.check(JCudaDriver.cuMemHostGetDevicePointer(device, host, 0), "cuMemHostGetDevicePointer");
        // a ByteBuffer view stops at 2 GB, so the segment is made from the address it starts at
        long start = MemorySegment.ofBuffer(host.getByteBuffer(0, 1)).address();
        segment = MemorySegment.ofAddress(start).reinterpret(bytes);
    }

    /** The memory on the host side, to fill. */
    public MemorySegment segment() {
        return segment;
    }

    /** The address kernels read it at. */
    public CUdeviceptr devicePointer() {
        return device;
    }

    /** The same, as the number a kernel parameter passes. */
    public long address() {
        return device.address();
    }

    public long bytes() {
        return bytes;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Cuda.check(JCudaDriver.cuMemFreeHost(host), "cuMemFreeHost");
        }
    }
}
