package dev.starling.gpu.cuda;

import dev.starling.gpu.clone.BankGeometry;
import dev.starling.gpu.plan.DeviceProfile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUjit_option;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import jcuda.driver.JITOptions;

/**
 * One GPU through the CUDA driver API: its primary context, properties, device memory under a
 * budget, and the kernels of the {@code kernels} module (fat binaries on the class path, loaded
 * once). Every thread that calls CUDA for this device first makes its context current.
 */
public final class GpuDevice implements AutoCloseable {
    private static final String KERNELS = "/dev/starling/kernels/";
    private static final int COMPILED_KERNELS = 256;
    private static final int JIT_LOG_BYTES = 16 << 10;

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
    /** Pinned host memory kept for the host parts of mapped ranges: {@code starling.gpu.pinned_keep} bytes (default 4 GiB). */
    private final PinnedChunks pinned = new PinnedChunks(Long.getLong("starling.gpu.pinned_keep", 4L << 30));
    /** Mapped pinned host memory kept for build keys and shared tables: {@code starling.gpu.mapped_keep} bytes (default 2 GiB). */
    private final MappedHostPool mapped = new MappedHostPool(this, Long.getLong("starling.gpu.mapped_keep", 2L << 30));
    private final Map<String, CUmodule> modules = new HashMap<>();
    /** Generated kernels by their PTX, least recently used first. */
    private final LinkedHashMap<String, Compiled> compiled = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    private GpuDevice(int ordinal, long budget) {
        this.ordinal = ordinal;
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
        profile = DeviceProfile.detected(name, totalMemory, multiprocessors, sharedMemoryPerBlock, bankGeometry());
        long[] free = new long[1];
        Cuda.check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo");
        // By default leave a tenth of the free memory to the driver and other processes.
        this.memory = new DeviceMemory(this, budget > 0 ? Math.min(budget, free[0]) : free[0] / 10 * 9);
    }

    /**
     * Opens GPU {@code ordinal} with a device memory budget of {@code budget} bytes (0: nine tenths
     * of its free memory). Throws {@link GpuException} saying why when there is no usable GPU.
     */
    public static GpuDevice open(int ordinal, long budget) {
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
        return new GpuDevice(ordinal, budget);
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

    /** Kernel {@code function} of the kernels module compiled from {@code source}.cu. */
    public synchronized CUfunction kernel(String source, String function) {
        makeCurrent();
        CUmodule module = modules.get(source);
        if (module == null) {
            module = new CUmodule();
            Cuda.check(JCudaDriver.cuModuleLoadData(module, kernelImage(source)), "cuModuleLoadData(" + source + ")");
            modules.put(source, module);
        }
        CUfunction f = new CUfunction();
        Cuda.check(JCudaDriver.cuModuleGetFunction(f, module, function), "cuModuleGetFunction(" + function + ")");
        return f;
    }

    /**
     * Kernel {@code entry} of a generated PTX module, compiled by the driver on first use and kept
     * (up to {@link #COMPILED_KERNELS} modules, least recently used unloaded first): a query shape
     * seen before runs without compiling. A PTX error comes back with the JIT's log.
     */
    public synchronized CUfunction compiled(String ptx, String entry) {
        makeCurrent();
        Compiled c = compiled.get(ptx);
        if (c == null) {
            c = compile(ptx, entry);
            compiled.put(ptx, c);
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

    private static Compiled compile(String ptx, String entry) {
        byte[] text = (ptx + "\0").getBytes(StandardCharsets.US_ASCII);
        JITOptions options = new JITOptions();
        options.putBytes(CUjit_option.CU_JIT_ERROR_LOG_BUFFER, new byte[JIT_LOG_BYTES]);
        options.putInt(CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_LOG_BYTES);
        CUmodule module = new CUmodule();
        int result = JCudaDriver.cuModuleLoadDataJIT(module, Pointer.to(text), options);
        if (result != CUresult.CUDA_SUCCESS) {
            String log = options.getString(CUjit_option.CU_JIT_ERROR_LOG_BUFFER);
            throw new GpuException("the driver could not compile a generated kernel: " + CUresult.stringFor(result)
                    + (log == null || log.isBlank() ? "" : "\n" + log.trim()));
        }
        CUfunction f = new CUfunction();
        Cuda.check(JCudaDriver.cuModuleGetFunction(f, module, entry), "cuModuleGetFunction(" + entry + ")");
        return new Compiled(module, f);
    }

    /** Whether this build has the kernels compiled from {@code source}.cu (it has none without nvcc). */
    public static boolean hasKernels(String source) {
        return GpuDevice.class.getResource(KERNELS + source + ".fatbin") != null;
    }

    private static byte[] kernelImage(String source) {
        try (InputStream in = GpuDevice.class.getResourceAsStream(KERNELS + source + ".fatbin")) {
            if (in == null) {
                throw new GpuException("this build has no GPU kernels (" + source
                        + ".fatbin): it was built without nvcc");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new GpuException("cannot read kernel image " + source + ": " + e.getMessage(), e);
        }
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
        return String.format("GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, budget %.1f GiB", ordinal, name,
                computeCapability / 10, computeCapability % 10, multiprocessors, totalMemory / (double) (1L << 30),
                memory.budget() / (double) (1L << 30));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        makeCurrent();
        pinned.close();
        mapped.close();
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
