package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * A hash table of 16-byte slots (the engine's {@code DimensionHashTable} layout) placed greedily,
 * as the thesis' hybrid table is: the first slots in device memory as far as a byte budget allows,
 * the rest in pinned host memory mapped into the device's address space, which kernels read over
 * the link. This is the layout without CUDA virtual memory mapping: two ranges, the kernel
 * choosing one per slot by comparing the slot with the split.
 */
public final class SplitTable implements AutoCloseable {
    private static final String KERNELS = "hybrid";
    private static final int THREADS = 256;

    private final GpuDevice device;
    private final DeviceBuffer devicePart;
    private final MappedHostBuffer hostPart;
    private final long split;
    private final int shift;

    private SplitTable(GpuDevice device, DeviceBuffer devicePart, MappedHostBuffer hostPart, long split, int shift) {
        this.device = device;
        this.devicePart = devicePart;
        this.hostPart = hostPart;
        this.split = split;
        this.shift = shift;
    }

    /**
     * Places {@code slots} ((key, row) pairs of longs; {@code shift} the table's hash shift) with at
     * most {@code deviceBytes} of them in device memory.
     */
    public static SplitTable place(GpuDevice device, long[] slots, int shift, long deviceBytes) {
        long count = slots.length / 2;
        long split = Math.min(count, Math.max(0, deviceBytes) / 16);
        DeviceBuffer onDevice = null;
        MappedHostBuffer onHost = null;
        try {
            if (split > 0) {
                onDevice = device.memory().allocate(split * 16, "hybrid table, device part");
                onDevice.upload(Pointer.to(slots), 0, split * 16);
            }
            if (split < count) {
                onHost = new MappedHostBuffer(device, (count - split) * 16);
                MemorySegment.copy(slots, (int) (split * 2), onHost.segment(), ValueLayout.JAVA_LONG, 0,
                        (int) ((count - split) * 2));
            }
            return new SplitTable(device, onDevice, onHost, split, shift);
        } catch (RuntimeException e) {
            if (onDevice != null) {
                onDevice.close();
            }
            if (onHost != null) {
                onHost.close();
            }
            throw e;
        }
    }

    /** Where the device part starts (0 when every slot is on the host). */
    public long deviceAddress() {
        return devicePart == null ? 0 : devicePart.address();
    }

    /** Where kernels read the host part (0 when every slot is on the device). */
    public long hostAddress() {
        return hostPart == null ? 0 : hostPart.address();
    }

    /** Slots in device memory; the rest are on the host. */
    public long split() {
        return split;
    }

    /** How many of the {@code n} keys (64-bit, in device memory) the table holds, counted by a kernel into {@code hits}. */
    public long count(DeviceBuffer keys, long n, DeviceBuffer hits) {
        device.makeCurrent();
        hits.clear();
        CUfunction f = device.kernel(KERNELS, "probe_split");
        int blocks = (int) Math.max(1, Math.min((n + THREADS - 1) / THREADS, device.multiprocessors() * 8L));
        CUdeviceptr none = new CUdeviceptr();
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, THREADS, 1, 1, 0, null, Pointer.to(
                Pointer.to(devicePart == null ? none : devicePart.pointer()),
                Pointer.to(hostPart == null ? none : hostPart.devicePointer()),
                Pointer.to(new long[] {split}), Pointer.to(new int[] {shift}), Pointer.to(keys.pointer()),
                Pointer.to(new long[] {n}), Pointer.to(hits.pointer())), null), "launch of probe_split");
        device.synchronize("probe_split");
        long[] found = new long[1];
        hits.download(Pointer.to(found), 8);
        return found[0];
    }

    @Override
    public void close() {
        try {
            if (devicePart != null) {
                devicePart.close();
            }
        } finally {
            if (hostPart != null) {
                hostPart.close();
            }
        }
    }
}
