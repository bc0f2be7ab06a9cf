package dev.starling.gpu.cuda;

/** The machine has a GPU but not CUDA's run-time compiler, without which no kernel can run on it. */
public final class MissingCompilerException extends GpuException {
    public MissingCompilerException(String message) {
        super(message);
    }
}
