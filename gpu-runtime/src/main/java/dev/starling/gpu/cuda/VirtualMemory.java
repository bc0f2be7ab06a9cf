package dev.starling.gpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The CUDA driver's virtual memory management calls (reserve an address range, create physical
 * allocations on the device or the host, map them into the range, grant access), called through
 * the Java foreign function API. JCuda 12.6 passes {@code CUmemAllocationProp} and
 * {@code CUmemAccessDesc} with uninitialised reserved bytes and some fields read from the wrong
 * object, which the driver rejects with CUDA_ERROR_INVALID_VALUE; here each struct is laid out as
 * cuda.h declares it and zeroed first. The calls run on the calling thread's current context, the
 * one JCuda made current: both talk to the same libcuda.
 */
public final class VirtualMemory {
    /** CUmemLocationType: CU_MEM_LOCATION_TYPE_DEVICE (id: the device ordinal). */
    public static final int ON_DEVICE = 1;
    /** CUmemLocationType: CU_MEM_LOCATION_TYPE_HOST (CUDA 12.2; id ignored), pinned host memory on any NUMA node. */
    public static final int ON_HOST = 2;

    private static final int ALLOCATION_PINNED = 1;
    private static final int GRANULARITY_MINIMUM = 0;
    private static final int ACCESS_READ_WRITE = 3;

    private static final StructLayout LOCATION = MemoryLayout.structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("id"));
    private static final StructLayout ALLOCATION_PROPERTIES = MemoryLayout.structLayout(
            JAVA_INT.withName("type"),
            JAVA_INT.withName("requestedHandleTypes"),
            LOCATION.withName("location"),
            ADDRESS.withName("win32HandleMetaData"),
            MemoryLayout.structLayout(JAVA_BYTE.withName("compressionType"), JAVA_BYTE.withName("gpuDirectRDMACapable"),
                    JAVA_SHORT.withName("usage"), MemoryLayout.sequenceLayout(4, JAVA_BYTE)).withName("allocFlags"));
    private static final StructLayout ACCESS_DESCRIPTOR = MemoryLayout.structLayout(
            LOCATION.withName("location"), JAVA_INT.withName("flags"));

    private static final VarHandle PROP_TYPE = field(ALLOCATION_PROPERTIES, "type");
    private static final VarHandle PROP_LOCATION_TYPE = field(ALLOCATION_PROPERTIES, "location", "type");
    private static final VarHandle PROP_LOCATION_ID = field(ALLOCATION_PROPERTIES, "location", "id");
    private static final VarHandle ACCESS_LOCATION_TYPE = field(ACCESS_DESCRIPTOR, "location", "type");
    private static final VarHandle ACCESS_LOCATION_ID = field(ACCESS_DESCRIPTOR, "location", "id");
    private static final VarHandle ACCESS_FLAGS = field(ACCESS_DESCRIPTOR, "flags");

    private static final NativeLibrary DRIVER = CudaDriverLibrary.DRIVER;
    private static final MethodHandle GET_GRANULARITY = DRIVER.function("cuMemGetAllocationGranularity",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle ADDRESS_RESERVE = DRIVER.function("cuMemAddressReserve",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle ADDRESS_FREE = DRIVER.function("cuMemAddressFree",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle CREATE = DRIVER.function("cuMemCreate",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle RELEASE = DRIVER.function("cuMemRelease",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private static final MethodHandle MAP = DRIVER.function("cuMemMap",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle UNMAP = DRIVER.function("cuMemUnmap",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle SET_ACCESS = DRIVER.function("cuMemSetAccess",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG));

    private VirtualMemory() { }

    /** The smallest allocation (and mapping) unit for pinned memory at {@code location} ({@link #ON_DEVICE} or {@link #ON_HOST}). */
    public static long granularity(int location, int id) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            Cuda.check(DRIVER.call(GET_GRANULARITY, out, properties(arena, location, id), GRANULARITY_MINIMUM),
                    "cuMemGetAllocationGranularity");
            return out.get(JAVA_LONG, 0);
        }
    }

    /** Reserves {@code bytes} of device address space aligned to {@code alignment}; returns its start. */
    public static long reserve(long bytes, long alignment) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            Cuda.check(DRIVER.call(ADDRESS_RESERVE, out, bytes, alignment, 0L, 0L),
                    "cuMemAddressReserve(" + bytes + " bytes)");
            return out.get(JAVA_LONG, 0);
        }
    }

    public static void free(long address, long bytes) {
        Cuda.check(DRIVER.call(ADDRESS_FREE, address, bytes), "cuMemAddressFree");
    }

    /** Creates {@code bytes} of pinned physical memory at {@code location}; returns its handle. */
    public static long create(long bytes, int location, int id) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            Cuda.check(DRIVER.call(CREATE, out, bytes, properties(arena, location, id), 0L),
                    "cuMemCreate(" + bytes + " bytes " + (location == ON_HOST ? "on the host" : "on the device") + ")");
            return out.get(JAVA_LONG, 0);
        }
    }

    public static void release(long handle) {
        Cuda.check(DRIVER.call(RELEASE, handle), "cuMemRelease");
    }

    /** Maps all of allocation {@code handle} ({@code bytes}) at {@code address}. */
    public static void map(long address, long bytes, long handle) {
        Cuda.check(DRIVER.call(MAP, address, bytes, 0L, handle, 0L), "cuMemMap");
    }

    public static void unmap(long address, long bytes) {
        Cuda.check(DRIVER.call(UNMAP, address, bytes), "cuMemUnmap");
    }

    /** Lets device {@code ordinal} read and write {@code bytes} mapped at {@code address}. */
    public static void grantReadWrite(long address, long bytes, int ordinal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = arena.allocate(ACCESS_DESCRIPTOR);
            ACCESS_LOCATION_TYPE.set(desc, 0L, ON_DEVICE);
            ACCESS_LOCATION_ID.set(desc, 0L, ordinal);
            ACCESS_FLAGS.set(desc, 0L, ACCESS_READ_WRITE);
            Cuda.check(DRIVER.call(SET_ACCESS, address, bytes, desc, 1L), "cuMemSetAccess");
        }
    }

    private static MemorySegment properties(Arena arena, int location, int id) {
        MemorySegment p = arena.allocate(ALLOCATION_PROPERTIES); // zeroed: no handle types, no flags
        PROP_TYPE.set(p, 0L, ALLOCATION_PINNED);
        PROP_LOCATION_TYPE.set(p, 0L, location);
        PROP_LOCATION_ID.set(p, 0L, id);
        return p;
    }

    private static VarHandle field(StructLayout layout, String... path) {
        MemoryLayout.PathElement[] elements = new MemoryLayout.PathElement[path.length];
        for (int i = 0; i < path.length; i++) {
            elements[i] = MemoryLayout.PathElement.groupElement(path[i]);
        }
        return layout.varHandle(elements);
    }
}
