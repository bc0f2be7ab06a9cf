package dev.starling.gpu.cuda;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One GPU through the CUDA driver API: its primary context, properties, device memory under a
 * budget, and its kernels: the {@code kernels} module's and the generated ones, compiled for it by
 * {@link KernelCompiler} and loaded once. Every thread that calls CUDA for this device first
 * makes its context current.
 */
public final class GpuDevice implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GpuDevice.class);
    private static final int COMPILED_KERNELS = 256;

    private final int ordinal;
    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    private final String name;
    private final long totalMemory;
    private final int multiprocessors;
    private final int sharedMemoryPerBlock;
    private final int warpSize;
    private final int computeCapability;
    private final DeviceMemory memory;
    private final DeviceProfile profile;
    /** Pinned host memory kept for the host parts of mapped ranges. */
    private final PinnedChunks pinned;
    /** Mapped pinned host memory kept for build keys and shared tables. */
    private final MappedHostPool mapped;
    /** Table memory page-locked in place for scans' copies. */
    private final HostRegistrations registrations;
    /** Pinned buffers that scans pack memory not page-locked into. */
    private final StagingBuffers staging = new StagingBuffers(this, 4);
    private final KernelCompiler compiler;
    private final Map<String, CUmodule> modules = new HashMap<>();
    /** Generated kernels by their source, least recently used first. */
    private final LinkedHashMap<String, Compiled> compiled = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    private GpuDevice(int ordinal, long budget, HostMemoryPools pools) {
        this.ordinal = ordinal;
        this.pinned = new PinnedChunks(pools.pinnedKeepBytes());
        this.mapped = new MappedHostPool(this, pools.mappedKeepBytes());
        this.registrations = new HostRegistrations(this, pools.pinnedTableBytes());
        Cuda.check(JCudaDriver.cuDeviceGet(device, ordinal), "cuDeviceGet(" + ordinal + ")");
        Cuda.check(JCudaDriver.cuDevicePrimaryCtxRetain(context, device), "cuDevicePrimaryCtxRetain");
        makeCurrent();
        byte[] nameBytes = new byte[256];
        Cuda.check(JCudaDriver.cuDeviceGetName(nameBytes, nameBytes.length, device), "cuDeviceGetName");
        int end = 0;
        while (end < nameBytes.length && nameBytes[end] != 0) {
            end++;
        }
        name = new String(nameBytes, 0, end, StandardCharsets.US_ASCII);
        long[] total = new long[1];
        Cuda.check(JCudaDriver.cuDeviceTotalMem(total, device), "cuDeviceTotalMem");
        totalMemory = total[0];
        multiprocessors = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        sharedMemoryPerBlock = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        warpSize = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        computeCapability = 10 * attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
                + attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        StringBuilder whyNot = new StringBuilder();
        compiler = KernelCompiler.forDevice(computeCapability, KernelCompiler.defaultCache(), whyNot).orElse(null);
        if (compiler == null) {
            JCudaDriver.cuDevicePrimaryCtxRelease(device);
            throw new MissingCompilerException(whyNot.toString());
        }
        profile = DeviceProfile.detected(name, totalMemory, multiprocessors, sharedMemoryPerBlock, bankGeometry());
        long[] free = new long[1];
        Cuda.check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo");
        // By default leave a tenth of the free memory to the driver and other processes.
        this.memory = new DeviceMemory(this, budget > 0 ? Math.min(budget, free[0]) : free[0] / 10 * 9);
    }

    /** Opens GPU {@code ordinal} as {@link #open(int, long, HostMemoryPools)} does, keeping the default pinned memory. */
    public static GpuDevice open(int ordinal, long budget) {
        return open(ordinal, budget, HostMemoryPools.DEFAULT);
    }

    /**
     * Opens GPU {@code ordinal} with a device memory budget of {@code budget} bytes (0: nine tenths
     * of its free memory), keeping {@code pools} of pinned host memory. Throws {@link GpuException}
     * saying why when there is no usable GPU.
     */
    public static GpuDevice open(int ordinal, long budget, HostMemoryPools pools) {
        try {
            JCudaDriver.setExceptionsEnabled(false);
            Cuda.check(JCudaDriver.cuInit(0), "cuInit");
        } catch (LinkageError e) {
            throw new GpuException("the CUDA driver (libcuda.so.1) cannot be loaded", e);
        }
        int[] count = new int[1];
        Cuda.check(JCudaDriver.cuDeviceGetCount(count), "cuDeviceGetCount");
        if (ordinal < 0 || ordinal >= count[0]) {
            throw new GpuException("no GPU " + ordinal + ": the driver sees " + count[0]);
        }
        return new GpuDevice(ordinal, budget, pools);
    }

    private int attribute(int which) {
        int[] value = new int[1];
        Cuda.check(JCudaDriver.cuDeviceGetAttribute(value, which, device), "cuDeviceGetAttribute(" + which + ")");
        return value[0];
    }

    /** Binds this device's context to the calling thread. */
    public void makeCurrent() {
        Cuda.check(JCudaDriver.cuCtxSetCurrent(context), "cuCtxSetCurrent");
    }

    /** Kernel {@code function} of the kernels module's {@code source}.cu, compiled on first use. */
    public synchronized CUfunction kernel(String source, String function) {
        makeCurrent();
        CUmodule module = modules.get(source);
        if (module == null) {
            module = load(compiler.compileModule(source), source + ".cu");
            modules.put(source, module);
        }
        CUfunction f = new CUfunction();
        Cuda.check(JCudaDriver.cuModuleGetFunction(f, module, function), "cuModuleGetFunction(" + function + ")");
        return f;
    }

    /**
     * Kernel {@code entry} of generated CUDA C {@code source}, compiled on first use and kept (up to
     * {@link #COMPILED_KERNELS} modules, least recently used unloaded first): a query shape seen
     * before runs without compiling. A compile error comes back with the compiler's log.
     */
    public synchronized CUfunction compiled(String source, String entry) {
        makeCurrent();
        Compiled c = compiled.get(source);
        if (c == null) {
            CUmodule module = load(compiler.compile(entry + ".cu", source), entry);
            CUfunction f = new CUfunction();
            Cuda.check(JCudaDriver.cuModuleGetFunction(f, module, entry), "cuModuleGetFunction(" + entry + ")");
            c = new Compiled(module, f);
            compiled.put(source, c);
            if (compiled.size() > COMPILED_KERNELS) {
                var eldest = compiled.entrySet().iterator();
                JCudaDriver.cuModuleUnload(eldest.next().getValue().module());
                eldest.remove();
            }
        }
        return c.function();
    }

    /** How many registers a thread of {@code kernel} uses. */
    public int registers(CUfunction kernel) {
        int[] value = new int[1];
        Cuda.check(JCudaDriver.cuFuncGetAttribute(value, CUfunction_attribute.CU_FUNC_ATTRIBUTE_NUM_REGS, kernel),
                "cuFuncGetAttribute(NUM_REGS)");
        return value[0];
    }

    private record Compiled(CUmodule module, CUfunction function) { }

    private static CUmodule load(byte[] image, String what) {
        CUmodule module = new CUmodule();
        Cuda.check(JCudaDriver.cuModuleLoadData(module, image), "cuModuleLoadData(" + what + ")");
        return module;
    }

    /** What compiled this device's kernels so far, and the compiler. */
    public KernelCompiler.Stats compilerStats() {
        return compiler.stats();
    }

    /** Waits for all work on the device, surfacing any error a kernel raised. */
    public void synchronize(String after) {
        makeCurrent();
        Cuda.check(JCudaDriver.cuCtxSynchronize(), "kernel " + after);
    }

    /** {@code bytes} of mapped pinned host memory from this device's pool, which closing returns them to. */
    public MappedHostBuffer mappedHost(long bytes) {
        return mapped.take(bytes);
    }

    /** The pool of pinned host memory chunks for mapped ranges. */
    public PinnedChunks pinnedChunks() {
        return pinned;
    }

    /** Pinned staging buffers kept for scans' copies of memory not page-locked. */
    public StagingBuffers staging() {
        return staging;
    }

    /** Host memory page-locked in place, for copies straight from table chunks. */
    public HostRegistrations registrations() {
        return registrations;
    }

    public DeviceMemory memory() {
        return memory;
    }

    public String name() {
        return name;
    }

    public int ordinal() {
        return ordinal;
    }

    public long totalMemory() {
        return totalMemory;
    }

    public int multiprocessors() {
        return multiprocessors;
    }

    /** The most shared memory a block can have, asking the driver for more than the default 48 KB. */
    public int sharedMemoryPerBlock() {
        return sharedMemoryPerBlock;
    }

    /**
     * The shared-memory shape clone layouts are made for: a warp's threads access a chunk of rows
     * at once; 32 banks of 4-byte words (no driver attribute reports the banks: every NVIDIA GPU
     * since Kepler has 32).
     */
    public BankGeometry bankGeometry() {
        return new BankGeometry(32, warpSize);
    }

    /** This device's sizes, with the rates of its model's built-in profile. */
    public DeviceProfile profile() {
        return profile;
    }

    public int computeCapability() {
        return computeCapability;
    }

    public String describe() {
        return String.format("GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, budget %.1f GiB; kernels by %s",
                ordinal, name, computeCapability / 10, computeCapability % 10, multiprocessors,
                totalMemory / (double) (1L << 30), memory.budget() / (double) (1L << 30), compiler.describe());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        makeCurrent();
        try {
            memory.freeKept();
        } catch (RuntimeException e) {
            // a context broken by an earlier error fails every free: the release below resets it
            LOG.warn("freeing kept device blocks on close failed: {}", e.getMessage());
        }
        pinned.close();
        mapped.close();
        staging.close();
        registrations.close();
        for (CUmodule m : modules.values()) {
            JCudaDriver.cuModuleUnload(m);
        }
        modules.clear();
        for (Compiled c : compiled.values()) {
            JCudaDriver.cuModuleUnload(c.module());
        }
        compiled.clear();
        Cuda.check(JCudaDriver.cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease");
    }
}
