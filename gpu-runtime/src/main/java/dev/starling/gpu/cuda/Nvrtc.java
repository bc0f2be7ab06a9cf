package dev.starling.gpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * CUDA's run-time compiler (NVRTC), called through the Java foreign function API: JCuda 12.6's
 * NVRTC bindings were built for CUDA 12, while GPU hosts carry the NVRTC of their toolkit
 * ({@code libnvrtc.so.13}). It compiles CUDA C to a device's machine code (CUBIN) with no GPU
 * involved. NVRTC comes with the CUDA runtime libraries (the {@code nvidia/cuda} runtime images,
 * the {@code cuda-nvrtc} packages), not with the driver.
 */
final class Nvrtc {
    /** The libraries tried, newest first; NVRTC's C API has kept these calls since CUDA 11. */
    private static final List<String> LIBRARIES = List.of("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so");

    private final MethodHandle create;
    private final MethodHandle compile;
    private final MethodHandle logSize;
    private final MethodHandle log;
    private final MethodHandle cubinSize;
    private final MethodHandle cubin;
    private final MethodHandle destroy;
    private final MethodHandle errorString;
    private final String version;

    private final NativeLibrary library;

    private Nvrtc(SymbolLookup symbols, String name) {
        library = new NativeLibrary(symbols, name);
        create = library.function("nvrtcCreateProgram",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        compile = library.function("nvrtcCompileProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        logSize = library.function("nvrtcGetProgramLogSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        log = library.function("nvrtcGetProgramLog", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cubinSize = library.function("nvrtcGetCUBINSize", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        cubin = library.function("nvrtcGetCUBIN", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        destroy = library.function("nvrtcDestroyProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        errorString = library.function("nvrtcGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        MethodHandle versionOf = library.function("nvrtcVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment major = arena.allocate(JAVA_INT);
            MemorySegment minor = arena.allocate(JAVA_INT);
            check(library.call(versionOf, major, minor), "nvrtcVersion");
            version = name + " " + major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        }
    }

    /** NVRTC as this machine has it, or empty with why not. */
    static Optional<Nvrtc> load(StringBuilder whyNot) {
        for (String name : LIBRARIES) {
            try {
                return Optional.of(new Nvrtc(SymbolLookup.libraryLookup(name, Arena.global()), name));
            } catch (IllegalArgumentException notThere) {
                // the next name
            }
        }
        whyNot.append("no CUDA run-time compiler (").append(String.join(", ", LIBRARIES))
                .append(") on the library path: install the CUDA toolkit's NVRTC (package cuda-nvrtc) or use an "
                        + "nvidia/cuda runtime image");
        return Optional.empty();
    }

    /** The library and its version, e.g. {@code libnvrtc.so.13 13.0}. */
    String version() {
        return version;
    }

    /**
     * Compiles {@code source} (named {@code name} in messages) with {@code headers} (include name to
     * text) and {@code options} into a CUBIN; a compile error comes back with NVRTC's log.
     */
    byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment program = arena.allocate(ADDRESS);
            MemorySegment headerTexts = arena.allocate(ADDRESS, Math.max(1, headers.size()));
            MemorySegment headerNames = arena.allocate(ADDRESS, Math.max(1, headers.size()));
            int h = 0;
            for (Map.Entry<String, String> e : headers.entrySet()) {
                headerNames.setAtIndex(ADDRESS, h, arena.allocateFrom(e.getKey()));
                headerTexts.setAtIndex(ADDRESS, h, arena.allocateFrom(e.getValue()));
                h++;
            }
            check(library.call(create, program, arena.allocateFrom(source), arena.allocateFrom(name), headers.size(),
                    headerTexts, headerNames), "nvrtcCreateProgram(" + name + ")");
            MemorySegment handle = program.get(ADDRESS, 0);
            try {
                MemorySegment optionTexts = arena.allocate(ADDRESS, Math.max(1, options.size()));
                for (int o = 0; o < options.size(); o++) {
                    optionTexts.setAtIndex(ADDRESS, o, arena.allocateFrom(options.get(o)));
                }
                int result = library.call(compile, handle, options.size(), optionTexts);
                if (result != 0) {
                    throw new GpuException("NVRTC could not compile " + name + ": " + error(result) + "\n"
                            + log(arena, handle));
                }
                MemorySegment size = arena.allocate(JAVA_LONG);
                check(library.call(cubinSize, handle, size), "nvrtcGetCUBINSize");
                MemorySegment image = arena.allocate(size.get(JAVA_LONG, 0));
                check(library.call(cubin, handle, image), "nvrtcGetCUBIN");
                return image.toArray(JAVA_BYTE);
            } finally {
                library.call(destroy, program);
            }
        }
    }

    private String log(Arena arena, MemorySegment handle) {
        MemorySegment size = arena.allocate(JAVA_LONG);
        check(library.call(logSize, handle, size), "nvrtcGetProgramLogSize");
        MemorySegment text = arena.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
        check(library.call(log, handle, text), "nvrtcGetProgramLog");
        return new String(text.toArray(JAVA_BYTE), StandardCharsets.UTF_8).replace("\0", "").trim();
    }

    private void check(int result, String what) {
        if (result != 0) {
            throw new GpuException(what + " failed: " + error(result));
        }
    }

    private String error(int result) {
        try {
            MemorySegment text = (MemorySegment) errorString.invokeExact(result);
            return text.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "NVRTC error " + result;
        }
    }
}
