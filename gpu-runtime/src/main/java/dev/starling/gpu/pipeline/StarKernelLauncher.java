package dev.starling.gpu.pipeline;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/** Compiles a star pipeline's kernel for its input and launches it, timed with CUDA events. */
final class StarKernelLauncher {
    static final int THREADS = 256;
    private static final Pattern FACT_PARAMETER = Pattern.compile("fact(\\d+)(_nulls)?");
    /**
     * Past this many registers a thread, fewer than two blocks of {@link #THREADS} fit an SM (a
     * quarter of its warps): the kernel is generated again with fewer rows per thread.
     */
    private static final int MAX_REGISTERS_PER_THREAD = 128;

    /** A compiled kernel and the rows per thread it was generated for. */
    record Kernel(CUfunction function, int items) { }

    private StarKernelLauncher() { }

    static Kernel compile(GpuDevice device, StarKernelInput input) {
        for (int i = 0; ; i++) {
            int items = StarKernelSource.ITEMS[i];
            CUfunction f = device.compiled(StarKernelSource.generate(input, items), StarKernelSource.ENTRY);
            if (device.registers(f) <= MAX_REGISTERS_PER_THREAD || i == StarKernelSource.ITEMS.length - 1) {
                return new Kernel(f, items);
            }
        }
    }

    /** Runs the kernel over all fact rows with {@code sharedBytes} of dynamic shared memory a block; returns its milliseconds. */
    static float launch(GpuDevice device, Kernel kernel, StarKernelInput input, int sharedBytes) {
        Bound bound = new Bound(device, kernel, input, sharedBytes);
        return time(device, () -> bound.enqueue(0, input.rows(), null));
    }

    /** Milliseconds from before {@code work} queues kernels in the default stream until all of them have run. */
    static float time(GpuDevice device, Runnable work) {
        device.makeCurrent();
        float[] millis = new float[1];
        CUevent start = new CUevent();
        CUevent stop = new CUevent();
        Cuda.check(JCudaDriver.cuEventCreate(start, 0), "cuEventCreate");
        Cuda.check(JCudaDriver.cuEventCreate(stop, 0), "cuEventCreate");
        try {
            Cuda.check(JCudaDriver.cuEventRecord(start, null), "cuEventRecord");
            work.run();
            Cuda.check(JCudaDriver.cuEventRecord(stop, null), "cuEventRecord");
            device.synchronize("star pipeline");
            Cuda.check(JCudaDriver.cuEventElapsedTime(millis, start, stop), "cuEventElapsedTime");
        } finally {
            JCudaDriver.cuEventDestroy(start);
            JCudaDriver.cuEventDestroy(stop);
        }
        return millis[0];
    }

    /** A compiled kernel bound to its input and shared memory, to be launched over ranges of fact rows. */
    static final class Bound {
        private final GpuDevice device;
        private final Kernel kernel;
        private final StarKernelInput input;
        private final int sharedBytes;
        private final int residentBlocks;
        /** Per parameter, the fact column whose values (2c) or NULL flags (2c + 1) it passes; -1 for others. */
        private final int[] factParameter;

        Bound(GpuDevice device, Kernel kernel, StarKernelInput input, int sharedBytes) {
            this.device = device;
            this.kernel = kernel;
            this.input = input;
            this.sharedBytes = sharedBytes;
            device.makeCurrent();
            if (sharedBytes > StarKernelInput.SHARED_MEMORY_BYTES) {
                Cuda.check(JCudaDriver.cuFuncSetAttribute(kernel.function(),
                        CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sharedBytes),
                        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + sharedBytes + ")");
            }
            int[] perSm = new int[1];
            Cuda.check(JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(perSm, kernel.function(), THREADS, sharedBytes),
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor");
            residentBlocks = device.multiprocessors() * Math.max(1, perSm[0]);
            List<StarKernelInput.Parameter> parameters = input.parameters();
            factParameter = new int[parameters.size()];
            for (int i = 0; i < factParameter.length; i++) {
                Matcher m = FACT_PARAMETER.matcher(parameters.get(i).name());
                factParameter[i] = m.matches() ? 2 * Integer.parseInt(m.group(1)) + (m.group(2) == null ? 0 : 1) : -1;
            }
        }

        /** Queues the kernel over fact rows {@code [first, end)} in {@code stream} (null: the default stream). */
        void enqueue(long first, long end, CUstream stream) {
            enqueue(first, end, stream, null);
        }

        /**
         * The same, the kernel reading fact column c at {@code fact.get(c)} (addresses at which row
         * r is the r-th value, though only rows [first, end) lie there) instead of its input's
         * (null: its input's).
         */
        void enqueue(long first, long end, CUstream stream, List<StarKernelInput.Column> fact) {
            device.makeCurrent();
            // One wave of resident blocks: a grid larger than that leaves the last wave's SMs half idle.
            long tile = (long) THREADS * kernel.items();
            int blocks = (int) Math.max(1, Math.min((end - first + tile - 1) / tile, residentBlocks));
            List<StarKernelInput.Parameter> parameters = input.parameters();
            Pointer[] args = new Pointer[parameters.size()];
            for (int i = 0; i < args.length; i++) {
                StarKernelInput.Parameter p = parameters.get(i);
                int f = factParameter[i];
                long value = switch (p.name()) {
                    case "first" -> first;
                    case "rows" -> end;
                    default -> fact == null || f < 0 ? p.value()
                            : f % 2 == 0 ? fact.get(f / 2).values() : fact.get(f / 2).nulls();
                };
                args[i] = Pointer.to(new long[] {value});
            }
            Cuda.check(JCudaDriver.cuLaunchKernel(kernel.function(), blocks, 1, 1, THREADS, 1, 1, sharedBytes, stream,
                    Pointer.to(args), null), "launch of the star pipeline kernel");
        }
    }
}
