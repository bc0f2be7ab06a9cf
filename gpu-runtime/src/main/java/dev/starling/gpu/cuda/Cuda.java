package dev.starling.gpu.cuda;

import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/** Turns CUDA driver results into exceptions that say which call failed and why. */
public final class Cuda {
    private Cuda() { }

    public static void check(int result, String call) {
        if (result == CUresult.CUDA_SUCCESS) {
            return;
        }
        String message = call + " failed: " + CUresult.stringFor(result) + describe(result);
        if (result == CUresult.CUDA_ERROR_OUT_OF_MEMORY) {
            throw new GpuOutOfMemoryException(message);
        }
        throw new GpuException(message);
    }

    private static String describe(int result) {
        String[] text = new String[1];
        return JCudaDriver.cuGetErrorString(result, text) == CUresult.CUDA_SUCCESS && text[0] != null
                ? " (" + text[0] + ")" : "";
    }
}
