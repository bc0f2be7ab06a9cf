package dev.starling.gpu.cuda;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * A C library called through the Java foreign function API (the CUDA driver's calls JCuda gets
 * wrong, NVRTC): its functions by name, and calls that return a C status code.
 */
final class NativeLibrary {
    private final SymbolLookup symbols;
    private final String name;

    NativeLibrary(SymbolLookup symbols, String name) {
        this.symbols = symbols;
        this.name = name;
    }

    /** The function {@code function} with C signature {@code descriptor}; a library without it fails loudly. */
    MethodHandle function(String function, FunctionDescriptor descriptor) {
        MemorySegment symbol = symbols.find(function).orElseThrow(() -> new GpuException(name + " has no " + function));
        return Linker.nativeLinker().downcallHandle(symbol, descriptor);
    }

    /** Calls {@code h}, which returns an int status code. */
    int call(MethodHandle h, Object... args) {
        try {
            return (int) h.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new GpuException("calling " + name + " failed: " + t);
        }
    }
}
