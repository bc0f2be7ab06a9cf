package dev.starling.bench;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import jcuda.driver.CUevent;
import jcuda.driver.JCudaDriver;

/**
 * Measures the device memory bandwidth the way the floor of a query is stated: a device-to-device
 * copy of {@code bytes} reads and writes them, so bandwidth is twice the bytes over the best time.
 */
final class DeviceBandwidth {
    private DeviceBandwidth() { }

    /** Best of {@code repeats} copies of {@code bytes}, in bytes per second. */
    static double measure(GpuDevice device, long bytes, int repeats) {
        try (DeviceBuffer from = device.memory().allocate(bytes, "bandwidth source");
             DeviceBuffer to = device.memory().allocate(bytes, "bandwidth target")) {
            from.clear();
            device.makeCurrent();
            CUevent start = new CUevent();
            CUevent stop = new CUevent();
            Cuda.check(JCudaDriver.cuEventCreate(start, 0), "cuEventCreate");
            Cuda.check(JCudaDriver.cuEventCreate(stop, 0), "cuEventCreate");
            try {
                float best = Float.MAX_VALUE;
                for (int i = 0; i <= repeats; i++) {
                    Cuda.check(JCudaDriver.cuEventRecord(start, null), "cuEventRecord");
                    Cuda.check(JCudaDriver.cuMemcpyDtoD(to.pointer(), from.pointer(), bytes), "cuMemcpyDtoD");
                    Cuda.check(JCudaDriver.cuEventRecord(stop, null), "cuEventRecord");
                    Cuda.check(JCudaDriver.cuEventSynchronize(stop), "cuEventSynchronize");
                    float[] ms = new float[1];
                    Cuda.check(JCudaDriver.cuEventElapsedTime(ms, start, stop), "cuEventElapsedTime");
                    if (i > 0) {
                        best = Math.min(best, ms[0]);
                    }
                }
                return 2.0 * bytes / (best / 1e3);
            } finally {
                JCudaDriver.cuEventDestroy(start);
                JCudaDriver.cuEventDestroy(stop);
            }
        }
    }
}
