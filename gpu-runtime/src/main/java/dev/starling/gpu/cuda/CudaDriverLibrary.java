package dev.starling.gpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;

/**
 * The CUDA driver ({@code libcuda.so.1}) for the calls made through the Java foreign function API
 * rather than JCuda, looked up once, when the first of them is made.
 */
final class CudaDriverLibrary {
    static final NativeLibrary DRIVER = new NativeLibrary(
            SymbolLookup.libraryLookup("libcuda.so.1", Arena.global()), "the CUDA driver");

    private CudaDriverLibrary() { }
}
