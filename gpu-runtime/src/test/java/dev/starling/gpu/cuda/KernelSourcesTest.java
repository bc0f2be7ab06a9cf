package dev.starling.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kernels' sources as NVRTC gets them: every header of the kernels module is handed to the
 * compiler, every quoted include names one of them, and every source is on the class path. (NVRTC
 * has no file system: a header missing from the list fails only on a GPU host.)
 */
class KernelSourcesTest {
    private static final Path SOURCES = Path.of("..", "kernels", "src", "main", "cuda");
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
}
