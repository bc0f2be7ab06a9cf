package dev.starling.gpu.cuda;

import jcuda.driver.CUdeviceptr;

/** A device pointer whose address can be read as a number (JCuda keeps it in a protected field), for kernel parameters. */
public final class DevicePointer extends CUdeviceptr {
    /** A pointer to {@code address} for JCuda calls (which add a pointer's byte offset to its base). */
    public static CUdeviceptr at(long address) {
        return new CUdeviceptr().withByteOffset(address);
    }

    public long address() {
        return getNativePointer();
    }
}
