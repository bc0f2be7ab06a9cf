package dev.starling.gpu.hybrid;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DevicePointer;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUmemAccessDesc;
import jcuda.driver.CUmemAllocationGranularity_flags;
import jcuda.driver.CUmemAllocationProp;
import jcuda.driver.CUmemAllocationType;
import jcuda.driver.CUmemGenericAllocationHandle;
import jcuda.driver.CUmemLocation;
import jcuda.driver.CUmemLocationType;
import jcuda.driver.CUmemAccess_flags;
import jcuda.driver.JCudaDriver;

/**
 * One contiguous device address range over device memory followed by pinned host memory, through
 * CUDA virtual memory management (reserve a range, create a device and a host allocation, map
 * both, grant the device access): kernels index it as one array and each page is read where it
 * lives. The device part counts against the memory budget. Drivers before CUDA 12.2 refuse host
 * allocations here: {@link #create} then throws and the caller falls back to two ranges.
 */
final class MappedRange implements AutoCloseable {
    /** CU_MEM_LOCATION_TYPE_HOST (CUDA 12.2); JCuda 12.6 names only the device location. */
    private static final int LOCATION_HOST = 2;

    private final GpuDevice device;
    private final DevicePointer base = new DevicePointer();
    private final List<CUmemGenericAllocationHandle> handles = new ArrayList<>();
    private long reserved;
    private long mapped;
    private long deviceBytes;
    private long charged;

    private MappedRange(GpuDevice device) {
        this.device = device;
    }

    /**
     * A range of at least {@code bytes}, its first part in device memory: {@code deviceBytes} at
     * most, rounded down to the device's allocation granularity (so possibly none).
     */
    static MappedRange create(GpuDevice device, long bytes, long deviceBytes) {
        MappedRange r = new MappedRange(device);
        try {
            r.map(bytes, deviceBytes);
            return r;
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    private void map(long bytes, long wanted) {
        device.makeCurrent();
        CUmemAllocationProp onDevice = properties(CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE, device.ordinal());
        CUmemAllocationProp onHost = properties(LOCATION_HOST, 0);
        long deviceGrain = granularity(onDevice);
        long hostGrain = granularity(onHost);
        deviceBytes = Math.min(wanted, bytes) / deviceGrain * deviceGrain;
        long hostBytes = (bytes - deviceBytes + hostGrain - 1) / hostGrain * hostGrain;
        long alignment = Math.max(deviceGrain, hostGrain);
        long total = (deviceBytes + hostBytes + alignment - 1) / alignment * alignment;
        Cuda.check(JCudaDriver.cuMemAddressReserve(base, total, alignment, new DevicePointer(), 0), "cuMemAddressReserve");
        reserved = total;
        if (deviceBytes > 0) {
            device.memory().charge(deviceBytes, "hybrid table, device part");
            charged = deviceBytes;
            mapPart(onDevice, 0, deviceBytes);
        }
        mapPart(onHost, deviceBytes, total - deviceBytes);
        CUmemAccessDesc access = new CUmemAccessDesc(
                new CUmemLocation(CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE, device.ordinal()),
                CUmemAccess_flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        Cuda.check(JCudaDriver.cuMemSetAccess(base, total, new CUmemAccessDesc[] {access}, 1), "cuMemSetAccess");
    }

    private void mapPart(CUmemAllocationProp where, long offset, long bytes) {
        CUmemGenericAllocationHandle handle = new CUmemGenericAllocationHandle();
        Cuda.check(JCudaDriver.cuMemCreate(handle, bytes, where, 0), "cuMemCreate(" + bytes + " bytes)");
        handles.add(handle);
        Cuda.check(JCudaDriver.cuMemMap(base.withByteOffset(offset), bytes, 0, handle, 0), "cuMemMap");
        mapped = offset + bytes;
    }

    private static CUmemAllocationProp properties(int locationType, int id) {
        CUmemAllocationProp p = new CUmemAllocationProp();
        p.type = CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED;
        p.location = new CUmemLocation(locationType, id);
        return p;
    }

    private static long granularity(CUmemAllocationProp p) {
        long[] g = new long[1];
        Cuda.check(JCudaDriver.cuMemGetAllocationGranularity(g, p,
                CUmemAllocationGranularity_flags.CU_MEM_ALLOC_GRANULARITY_MINIMUM), "cuMemGetAllocationGranularity");
        return g[0];
    }

    DevicePointer base() {
        return base;
    }

    /** Bytes at the start of the range that live in device memory. */
    long deviceBytes() {
        return deviceBytes;
    }

    @Override
    public void close() {
        device.makeCurrent();
        try {
            if (mapped > 0) {
                Cuda.check(JCudaDriver.cuMemUnmap(base, mapped), "cuMemUnmap");
            }
            for (CUmemGenericAllocationHandle h : handles) {
                Cuda.check(JCudaDriver.cuMemRelease(h), "cuMemRelease");
            }
            if (reserved > 0) {
                Cuda.check(JCudaDriver.cuMemAddressFree(base, reserved), "cuMemAddressFree");
            }
        } finally {
            handles.clear();
            mapped = 0;
            reserved = 0;
            if (charged > 0) {
                device.memory().refund(charged);
                charged = 0;
            }
        }
    }
}
