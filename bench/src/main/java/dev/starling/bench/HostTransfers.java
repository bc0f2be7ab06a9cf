package dev.starling.bench;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.MappedHostBuffer;
import dev.starling.gpu.cuda.PinnedBuffer;
import dev.starling.gpu.cuda.StagedCopy;
import java.lang.foreign.MemorySegment;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * The ways host data reaches a kernel (Lutz's thesis, section 3.3): a pageable copy (the driver
 * stages it through its own pinned buffer, one piece at a time), a copy staged through our pinned
 * buffers (packing one while the other crosses), a copy straight from pinned memory, copies of
 * pinned chunks over several streams with a kernel consuming each chunk as it lands (copies and
 * kernels overlap), and zero-copy reads of mapped pinned memory by the kernel itself. Each method
 * ends with the data consumed by {@code read_words} (it sums the words), so they are compared on
 * equal terms: data in a kernel's hands.
 */
final class HostTransfers {
    private static final String KERNELS = "transfer";
    private static final int THREADS = 256;

    private final GpuDevice device;

    public HostTransfers(GpuDevice device) {
        this.device = device;
    }

    /** Sums {@code words} 64-bit words at {@code address} on the device (device or mapped host memory) on {@code stream}. */
    public void consume(CUdeviceptr address, long words, DeviceBuffer sum, CUstream stream) {
        device.makeCurrent();
        CUfunction f = device.kernel(KERNELS, "read_words");
        int blocks = (int) Math.max(1, Math.min((words + THREADS - 1) / THREADS, device.multiprocessors() * 8L));
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, THREADS, 1, 1, 0, stream,
                Pointer.to(Pointer.to(address), Pointer.to(new long[] {words}), Pointer.to(sum.pointer())), null),
                "launch of read_words");
    }

    /** A synchronous copy from pageable host memory, then the kernel. */
    public void pageable(MemorySegment source, DeviceBuffer target, DeviceBuffer sum) {
        Cuda.check(JCudaDriver.cuMemcpyHtoD(target.pointer(), Pointer.to(source.asByteBuffer()), source.byteSize()),
                "cuMemcpyHtoD (pageable)");
        consume(target.pointer(), source.byteSize() / 8, sum, null);
        device.synchronize("read_words");
    }

    /** Packed into two pinned staging buffers in turn, each copied asynchronously while the other fills; then the kernel. */
    public void staged(MemorySegment source, DeviceBuffer target, PinnedBuffer[] staging, GpuStream stream, DeviceBuffer sum) {
        try (StagedCopy copy = new StagedCopy(staging, stream)) {
            copy.put(source, 0, source.byteSize(), target, 0);
            copy.finish("staged copy");
        }
        consume(target.pointer(), source.byteSize() / 8, sum, null);
        device.synchronize("read_words");
    }

    /**
     * Copies of {@code piece} bytes each, queued back to back on {@code stream} straight from
     * {@code source}, host memory page-locked in place (as table chunks are), then the kernel.
     */
    public void registered(MemorySegment source, long piece, DeviceBuffer target, GpuStream stream, DeviceBuffer sum) {
        for (long at = 0; at < source.byteSize(); at += piece) {
            target.uploadAsync(new Pointer().withByteOffset(source.address() + at), at,
                    Math.min(piece, source.byteSize() - at), stream);
        }
        stream.synchronize("copies from registered memory");
        consume(target.pointer(), source.byteSize() / 8, sum, null);
        device.synchronize("read_words");
    }

    /** One copy from pinned memory, then the kernel. */
    public void pinned(PinnedBuffer source, long bytes, DeviceBuffer target, DeviceBuffer sum) {
        target.upload(source.pointer(), 0, bytes);
        consume(target.pointer(), bytes / 8, sum, null);
        device.synchronize("read_words");
    }

    /**
     * Pinned memory in chunks of {@code chunk} bytes over {@code streams}: each stream copies its
     * chunk and then runs the kernel on it, so one chunk's kernel overlaps the next chunks' copies.
     */
    public void pipelined(PinnedBuffer source, long bytes, long chunk, DeviceBuffer target, GpuStream[] streams,
                          DeviceBuffer sum) {
        int s = 0;
        for (long at = 0; at < bytes; at += chunk, s = (s + 1) % streams.length) {
            long n = Math.min(chunk, bytes - at);
            target.uploadAsync(source.pointer().withByteOffset(at), at, n, streams[s]);
            consume(target.pointer().withByteOffset(at), n / 8, sum, streams[s].handle());
        }
        for (GpuStream stream : streams) {
            stream.synchronize("pipelined copies");
        }
    }

    /** No copy: the kernel reads mapped pinned host memory over the link. */
    public void zeroCopy(MappedHostBuffer source, DeviceBuffer sum) {
        consume(source.devicePointer(), source.bytes() / 8, sum, null);
        device.synchronize("read_words (zero-copy)");
    }
}
