package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DevicePointer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;
import dev.starling.gpu.cuda.KernelStructs;
import dev.starling.gpu.cuda.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A hash table of slots ({@link KernelStructs#HASH_SLOT}, 16 bytes) placed greedily,
 * as Lutz's thesis' hybrid table is: the first slots in device memory as far as a byte budget allows,
 * the rest in pinned host memory that kernels read over the link. Preferably one contiguous range
 * ({@link MappedRange}: kernels index it as one array); where the driver refuses, two ranges, a
 * device buffer and a mapped host buffer, with the slot index choosing one: a kernel reads slot s
 * at {@code device + 16 s} below {@link #split()}, else at {@code host + 16 (s - split)}.
 */
public final class SplitTable implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SplitTable.class);
    private static final String KERNELS = "hybrid";
    private static final int THREADS = 256;
    private static final long SLOT_BYTES = KernelStructs.HASH_SLOT.bytes();

    /** How a table is laid out: one range where the driver allows it, or two ranges always. */
    public enum Layout { CONTIGUOUS, TWO_RANGES }

    private final GpuDevice device;
    private final AutoCloseable[] parts;
    private final long deviceAddress;
    private final long hostAddress;
    private final long split;
    private final long onDevice;
    private final int shift;

    private SplitTable(GpuDevice device, AutoCloseable[] parts, long deviceAddress, long hostAddress, long split,
                       long onDevice, int shift) {
        this.device = device;
        this.parts = parts;
        this.deviceAddress = deviceAddress;
        this.hostAddress = hostAddress;
        this.split = split;
        this.onDevice = onDevice;
        this.shift = shift;
    }

    /**
     * Places {@code slots} ((key, row) pairs of longs; {@code shift} the table's hash shift) with at
     * most {@code deviceBytes} of them in device memory, laid out as {@code layout} asks.
     */
    public static SplitTable place(GpuDevice device, long[] slots, int shift, long deviceBytes, Layout layout) {
        long bytes = slots.length * 8L;
        if (layout == Layout.CONTIGUOUS && deviceBytes > 0 && deviceBytes < bytes) {
            try {
                MappedRange range = MappedRange.create(device, bytes, deviceBytes);
                try {
                    Cuda.check(JCudaDriver.cuMemcpyHtoD(DevicePointer.at(range.base()), Pointer.to(slots), bytes), "cuMemcpyHtoD");
                } catch (RuntimeException e) {
                    range.close();
                    throw e;
                }
                long count = slots.length / 2;
                return new SplitTable(device, new AutoCloseable[] {range}, range.base(), 0, count,
                        range.deviceBytes() / SLOT_BYTES, shift);
            } catch (GpuException e) {
                LOG.info("one address range over device and host memory refused ({}): using two ranges", e.getMessage());
            }
        }
        return twoRanges(device, slots, shift, deviceBytes);
    }

    private static SplitTable twoRanges(GpuDevice device, long[] slots, int shift, long deviceBytes) {
        long count = slots.length / 2;
        long split = Math.min(count, Math.max(0, deviceBytes) / SLOT_BYTES);
        DeviceBuffer onDevice = null;
        MappedHostBuffer onHost = null;
        try {
            if (split > 0) {
                onDevice = device.memory().allocate(split * SLOT_BYTES, "hybrid table, device part");
                onDevice.upload(Pointer.to(slots), 0, split * SLOT_BYTES);
            }
            if (split < count) {
                onHost = device.mappedHost((count - split) * SLOT_BYTES);
                MemorySegment.copy(slots, (int) (split * 2), onHost.segment(), ValueLayout.JAVA_LONG, 0,
                        (int) ((count - split) * 2));
            }
            return new SplitTable(device, new AutoCloseable[] {onDevice, onHost}, onDevice == null ? 0 : onDevice.address(),
                    onHost == null ? 0 : onHost.address(), split, split, shift);
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

    /** Where slot 0 is (0 when every slot is on the host in two ranges). */
    public long deviceAddress() {
        return deviceAddress;
    }

    /** Where slot {@link #split()} is, in two ranges (0 in one range, or when every slot is on the device). */
    public long hostAddress() {
        return hostAddress;
    }

    /** The first slot read from {@link #hostAddress()} (every slot in one range). */
    public long split() {
        return split;
    }

    /** How many slots live in device memory. */
    public long slotsOnDevice() {
        return onDevice;
    }

    public boolean contiguous() {
        return hostAddress == 0;
    }

    /** How many of the {@code n} keys (64-bit, in device memory) the table holds, counted by a kernel into {@code hits}. */
    public long count(DeviceBuffer keys, long n, DeviceBuffer hits) {
        device.makeCurrent();
        hits.clear();
        CUfunction f = device.kernel(KERNELS, "probe_split");
        int blocks = (int) Math.max(1, Math.min((n + THREADS - 1) / THREADS, device.multiprocessors() * 8L));
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, THREADS, 1, 1, 0, null, Pointer.to(
                Pointer.to(new long[] {deviceAddress}), Pointer.to(new long[] {hostAddress}),
                Pointer.to(new long[] {split}), Pointer.to(new int[] {shift}), Pointer.to(keys.pointer()),
                Pointer.to(new long[] {n}), Pointer.to(hits.pointer())), null), "launch of probe_split");
        device.synchronize("probe_split");
        long[] found = new long[1];
        hits.download(Pointer.to(found), 8);
        return found[0];
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable part : parts) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new GpuException("freeing a hybrid table", e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
