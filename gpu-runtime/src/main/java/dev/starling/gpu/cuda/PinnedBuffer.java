package dev.starling.gpu.cuda;

import java.lang.foreign.MemorySegment;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/** Page-locked host memory: copies from it to the device run at the link's full speed. */
public final class PinnedBuffer implements AutoCloseable {
    private final Pointer pointer = new Pointer();
    private final MemorySegment segment;
    private boolean closed;

    public PinnedBuffer(GpuDevice device, int bytes) {
        device.makeCurrent();
        Cuda.check(JCudaDriver.cuMemAllocHost(pointer, bytes), "cuMemAllocHost(" + bytes + " bytes)");
        segment = MemorySegment.ofBuffer(pointer.getByteBuffer(0, bytes));
    }

    public Pointer pointer() {
        return pointer;
    }

    public MemorySegment segment() {
        return segment;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Cuda.check(JCudaDriver.cuMemFreeHost(pointer), "cuMemFreeHost");
        }
    }
}
