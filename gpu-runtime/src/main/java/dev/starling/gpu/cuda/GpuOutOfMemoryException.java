package dev.starling.gpu.cuda;

/** A device allocation passed the memory budget or the device's free memory: the work goes to the CPU. */
public final class GpuOutOfMemoryException extends GpuException {
    public GpuOutOfMemoryException(String message) {
        super(message);
    }
}
