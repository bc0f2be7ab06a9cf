package dev.starling.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;

/** The GPU the gpu-tagged tests run on. */
final class GpuDevices {
    private GpuDevices() { }

    /** GPU 0 with a device memory budget of {@code budget} bytes (0: most of it), or the test skipped where there is none. */
    static GpuDevice openOrSkip(long budget) {
        try {
            return GpuDevice.open(0, budget);
        } catch (GpuException e) {
            assumeTrue(false, "no GPU: " + e.getMessage());
            throw e;
        }
    }
}
