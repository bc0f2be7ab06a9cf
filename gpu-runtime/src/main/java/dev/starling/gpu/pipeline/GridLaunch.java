package dev.starling.gpu.pipeline;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.GpuDevice;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * A kernel whose threads stride over a grid's worth of items at a time, launched for {@code items}
 * items: {@link StarKernelLauncher#THREADS} threads a block and no more blocks than the items need
 * or eight per multiprocessor keep busy; the launch is checked and waited for.
 */
final class GridLaunch {
    private GridLaunch() { }

    /** Runs kernel {@code name} of module {@code source} over {@code items} items with {@code arguments}. */
    static void run(GpuDevice device, String source, String name, long items, Pointer... arguments) {
        int threads = StarKernelLauncher.THREADS;
        int blocks = (int) Math.max(1, Math.min((items + threads - 1) / threads, device.multiprocessors() * 8L));
        Cuda.check(JCudaDriver.cuLaunchKernel(device.kernel(source, name), blocks, 1, 1, threads, 1, 1, 0, null,
                Pointer.to(arguments), null), "launch of " + name);
        device.synchronize(name);
    }
}
