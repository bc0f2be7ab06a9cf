package dev.starling.gpu.cuda;

/** A CUDA call failed; the message names the call and the driver's error. */
public class GpuException extends RuntimeException {
    public GpuException(String message) {
        super(message);
    }

    public GpuException(String message, Throwable cause) {
        super(message, cause);
    }
}
