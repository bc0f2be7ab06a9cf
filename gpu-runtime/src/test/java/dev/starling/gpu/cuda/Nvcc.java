package dev.starling.gpu.cuda;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * CUDA's {@code nvcc} as the kernel tests use it where it is installed (the build machine has it,
 * CI does not): compiling as NVRTC does on the GPU host, with the same options, the kernels'
 * headers and the headers generated from Java, and reporting registers and spills.
 */
public final class Nvcc {
    /** The kernels module's CUDA sources, from a module's folder. */
    public static final Path SOURCES = Path.of("..", "kernels", "src", "main", "cuda").toAbsolutePath().normalize();

    private Nvcc() { }

    /** Whether nvcc runs on this machine. */
    public static boolean installed() throws InterruptedException {
        try {
            return new ProcessBuilder("nvcc", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException noNvcc) {
            return false;
        }
    }

    /**
     * Writes the generated headers into {@code dir}; returns the start of a command compiling to
     * CUBIN for sm_90 with NVRTC's options, the kernels' and the generated headers on the include
     * path and ptxas' register report on: add the source, {@code -o} and the output.
     */
    public static List<String> command(Path dir) throws IOException {
        for (Map.Entry<String, String> h : KernelCompiler.generatedHeaders().entrySet()) {
            Files.writeString(dir.resolve(h.getKey()), h.getValue());
        }
        List<String> command = new ArrayList<>(List.of("nvcc", "-cubin"));
        command.addAll(KernelCompiler.options(90));
        command.addAll(List.of("-I" + SOURCES, "-I" + dir, "-Xptxas", "-v"));
        return command;
    }
}
