package dev.starling.gpu.cuda;

import jcuda.driver.CUdeviceptr;

/** A device pointer whose address can be read as a number (JCuda keeps it in a protected field), for kernel parameters. */
public final class DevicePointer extends CUdeviceptr {
    public long address() {
        return getNativePointer();
    }
}
