package dev.starling.exec.accel;

/**
 * A plan places a pipeline on an accelerator that this process does not have: planned for a named
 * GPU profile on a machine without that GPU.
 */
public final class AcceleratorMissingException extends RuntimeException {
    public AcceleratorMissingException(int pipeline, DevicePlan plan) {
        super("pipeline " + pipeline + " is planned for the GPU (" + plan.target() + "), and this machine has no GPU "
                + "backend: SET backend = 'cpu' (or 'auto') to run it on the CPU");
    }
}
