package dev.starling.gpu.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/**
 * Device memory from {@link DeviceMemory}; closing it gives its block back for reuse and its bytes to the budget.
 * {@link #address} is the raw device address, for descriptors that kernels read.
 */
public final class DeviceBuffer implements AutoCloseable {
    private final DeviceMemory memory;
    private final CUdeviceptr pointer;
    private final long bytes;
    private final long capacity;
    private final long address;
    private boolean closed;

    DeviceBuffer(DeviceMemory memory, CUdeviceptr pointer, long bytes, long capacity, long address) {
        this.memory = memory;
        this.pointer = pointer;
        this.bytes = bytes;
        this.capacity = capacity;
        this.address = address;
    }

    public CUdeviceptr pointer() {
        return pointer;
    }

    public long bytes() {
        return bytes;
    }

    /** The bytes of device memory this buffer holds: {@link #bytes} rounded up to its block, which may be a reused one up to an eighth larger. */
    public long heldBytes() {
        return capacity;
    }

    public long address() {
        return address;
    }

    /** Copies {@code length} bytes from host memory at {@code source} to {@code offset} in this buffer. */
    public void upload(Pointer source, long offset, long length) {
        checkRange(offset, length);
        if (length > 0) {
            Cuda.check(JCudaDriver.cuMemcpyHtoD(pointer.withByteOffset(offset), source, length), "cuMemcpyHtoD");
            memory.copied(true, length);
        }
    }

    /**
     * Queues a copy of {@code length} bytes from pinned host memory at {@code source} to
     * {@code offset} in this buffer on {@code stream}; the source must stay untouched until the
     * stream has done it.
     */
    public void uploadAsync(Pointer source, long offset, long length, GpuStream stream) {
        checkRange(offset, length);
        if (length > 0) {
            Cuda.check(JCudaDriver.cuMemcpyHtoDAsync(pointer.withByteOffset(offset), source, length, stream.handle()),
                    "cuMemcpyHtoDAsync");
            memory.copied(true, length);
        }
    }

    /** Copies {@code length} bytes from the start of this buffer to host memory at {@code target}. */
    public void download(Pointer target, long length) {
        download(target, 0, length);
    }

    /** Copies {@code length} bytes from {@code offset} in this buffer to host memory at {@code target}. */
    public void download(Pointer target, long offset, long length) {
        checkRange(offset, length);
        if (length > 0) {
            Cuda.check(JCudaDriver.cuMemcpyDtoH(target, pointer.withByteOffset(offset), length), "cuMemcpyDtoH");
            memory.copied(false, length);
        }
    }

    public void clear() {
        fill((byte) 0, bytes);
    }

    /** Sets the first {@code length} bytes to {@code value}. */
    public void fill(byte value, long length) {
        checkRange(0, length);
        Cuda.check(JCudaDriver.cuMemsetD8(pointer, value, length), "cuMemsetD8");
    }

    /** Sets every {@code width}-byte word (4 or 8) of the buffer to {@code value}'s low {@code width} bytes. */
    public void fill(long value, int width) {
        checkRange(0, bytes);
        if (width == 4 || width == 8 && (int) value == (int) (value >>> 32)) {
            Cuda.check(JCudaDriver.cuMemsetD32(pointer, (int) value, bytes / 4), "cuMemsetD32");
        } else if (width == 8) {
            // halves that differ: the first word, then the filled part copied after itself until
            // the buffer is full (a 2D memset of one word per row took milliseconds for a few MB)
            long words = bytes / 8 * 8;
            long filled = Math.min(8, words);
            upload(Pointer.to(new long[] {value}), 0, filled);
            while (filled > 0 && filled < words) {
                long copy = Math.min(filled, words - filled);
                Cuda.check(JCudaDriver.cuMemcpyDtoD(pointer.withByteOffset(filled), pointer, copy), "cuMemcpyDtoD");
                filled += copy;
            }
        } else {
            throw new IllegalArgumentException("words of " + width + " bytes");
        }
    }

    private void checkRange(long offset, long length) {
        if (closed) {
            throw new IllegalStateException("device buffer already freed");
        }
        if (offset < 0 || length < 0 || offset + length > bytes) {
            throw new IndexOutOfBoundsException("copy of " + length + " bytes at " + offset + " into a buffer of " + bytes);
        }
    }

    /** Synchronized: a block given back twice would be handed to two buffers. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            memory.free(this);
        }
    }
}
