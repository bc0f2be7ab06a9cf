package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DevicePointer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.MappedHostBuffer;
import jcuda.Pointer;
import jcuda.driver.CUDA_MEMCPY2D;
import jcuda.driver.CUmemorytype;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An array kernels read and write at one address whose first bytes live in device memory, as far
 * as an allowance goes, and the rest spill to pinned host memory reached over the link: device
 * memory alone when it all fits, one {@link MappedRange} over both where the driver allows it,
 * else all of it on the host. Kernels may update it with atomics: the GPU's atomics on pinned host
 * memory are atomic among its own threads (not towards the CPU, which reads it only once they are done).
 */
public final class SpillBuffer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpillBuffer.class);

    private final Runnable free;
    private final long address;
    private final long bytes;
    private final long deviceBytes;

    private SpillBuffer(Runnable free, long address, long bytes, long deviceBytes) {
        this.free = free;
        this.address = address;
        this.bytes = bytes;
        this.deviceBytes = deviceBytes;
    }

    /** {@code bytes} with at most {@code allowance} of them in device memory; {@code what} names it in errors. */
    public static SpillBuffer allocate(GpuDevice device, long bytes, long allowance, String what) {
        if (allowance >= bytes) {
            try {
                DeviceBuffer b = device.memory().allocate(bytes, what);
                return new SpillBuffer(b::close, b.address(), bytes, bytes);
            } catch (GpuOutOfMemoryException e) {
                LOG.debug("{} did not fit the device after all ({}): spilling part of it", what, e.getMessage());
            }
        }
        if (allowance > 0) {
            try {
                MappedRange r = MappedRange.create(device, bytes, Math.min(allowance, bytes - 1));
                return new SpillBuffer(r::close, r.base(), bytes, r.deviceBytes());
            } catch (GpuException e) {
                LOG.info("one address range over device and host memory refused for {} ({}): all of it on the host",
                        what, e.getMessage());
            }
        }
        MappedHostBuffer h = device.mappedHost(Math.max(1, bytes));
        return new SpillBuffer(h::close, h.address(), bytes, 0);
    }

    public long address() {
        return address;
    }

    /** Copies the first {@code length} bytes to {@code target} (host memory), wherever they live. */
    public void download(Pointer target, long length) {
        Cuda.check(JCudaDriver.cuMemcpyDtoH(target, DevicePointer.at(address), length), "cuMemcpyDtoH");
    }

    /**
     * Copies {@code rows} runs of {@code width} bytes, {@code pitch} bytes apart from the start
     * (a column of records), to {@code target} (host memory) one after the other, wherever they live.
     */
    public void download(Pointer target, long width, long pitch, long rows) {
        if (rows == 0) {
            return;
        }
        CUDA_MEMCPY2D copy = new CUDA_MEMCPY2D();
        copy.srcMemoryType = CUmemorytype.CU_MEMORYTYPE_DEVICE;
        copy.srcDevice = DevicePointer.at(address);
        copy.srcPitch = pitch;
        copy.dstMemoryType = CUmemorytype.CU_MEMORYTYPE_HOST;
        copy.dstHost = target;
        copy.dstPitch = width;
        copy.WidthInBytes = width;
        copy.Height = rows;
        Cuda.check(JCudaDriver.cuMemcpy2D(copy), "cuMemcpy2D");
    }

    /** Bytes from the start that live in device memory. */
    public long deviceBytes() {
        return Math.min(bytes, deviceBytes);
    }

    /** Bytes that live in host memory. */
    public long hostBytes() {
        return bytes - deviceBytes();
    }

    @Override
    public void close() {
        free.run();
    }
}
