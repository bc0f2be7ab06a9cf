package dev.starling.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernels' sources as NVRTC gets them: every header of the kernels module is handed to the
 * compiler, every quoted include names one of them, and every source is on the class path (NVRTC
 * has no file system: a header missing from the list would fail only on a GPU host); where CUDA's
 * {@code nvcc} is installed, every module compiles with the options NVRTC gets, without spilling.
 */
class KernelSourcesTest {
    private static final Path SOURCES = Nvcc.SOURCES;
    private static final Pattern INCLUDE = Pattern.compile("^#include\\s+\"([^\"]+)\"", Pattern.MULTILINE);

    @Test
    void everyHeaderReachesTheCompiler() throws IOException {
        Set<String> headers = new HashSet<>();
        List<Path> files;
        try (Stream<Path> listing = Files.list(SOURCES)) {
            files = listing.toList();
        }
        for (Path f : files) {
            if (f.toString().endsWith(".cuh")) {
                headers.add(f.getFileName().toString());
            }
        }
        assertEquals(headers, new HashSet<>(KernelCompiler.HEADERS));
        headers.addAll(KernelCompiler.generatedHeaders().keySet());
        for (Path f : files) {
            String text = KernelCompiler.source(f.getFileName().toString());
            assertEquals(Files.readString(f), text, f + " on the class path");
            Matcher m = INCLUDE.matcher(text);
            while (m.find()) {
                assertTrue(headers.contains(m.group(1)), f + " includes " + m.group(1));
            }
            assertTrue(!text.contains("#include <") || text.contains("__CUDACC_RTC__"),
                    f + " includes a C library header that NVRTC does not have");
        }
    }

    @Test
    void everyModuleCompilesWhereCudaIsInstalled(@TempDir Path out) throws Exception {
        if (!Nvcc.installed()) {
            return;
        }
        List<Path> modules;
        try (Stream<Path> listing = Files.list(SOURCES)) {
            modules = listing.filter(f -> f.toString().endsWith(".cu")).toList();
        }
        assertTrue(modules.size() >= 4, modules.toString());
        List<String> nvcc = Nvcc.command(out);
        // the C compiler lays each shared struct out as Java does: size and every field's offset
        StringBuilder check = new StringBuilder("#include \"structs.cuh\"\n");
        for (KernelStruct s : KernelStructs.ALL) {
            check.append(String.format("static_assert(sizeof(%s) == %d, \"%s\");%n", s.name(), s.bytes(), s.name()));
            for (KernelStruct.Field f : s.fields()) {
                long offset = s.layout().byteOffset(MemoryLayout.PathElement.groupElement(f.name()));
                check.append(String.format("static_assert(__builtin_offsetof(%s, %s) == %d, \"%s.%s\");%n", s.name(),
                        f.name(), offset, s.name(), f.name()));
            }
        }
        Path layouts = out.resolve("struct_layouts.cu");
        Files.writeString(layouts, check.toString());
        modules = new ArrayList<>(modules);
        modules.add(layouts);
        for (Path cu : modules) {
            List<String> command = new ArrayList<>(nvcc);
            command.addAll(List.of(cu.toString(), "-o", out.resolve("m.cubin").toString()));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), "nvcc timed out");
            assertEquals(0, p.exitValue(), cu + ":\n" + log);
            assertTrue(!log.contains("bytes spill stores") || !log.matches("(?s).*[1-9][0-9]* bytes spill stores.*"),
                    cu + " spills registers:\n" + log);
        }
    }
}
