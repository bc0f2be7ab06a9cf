package dev.starling.gpu.cuda;

import dev.starling.storage.Hashing;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles the kernels' CUDA C (the {@code kernels} module's sources on the class path, and the
 * star pipeline kernels generated per query shape) for one GPU architecture with NVRTC, so a
 * build needs no {@code nvcc} and every GPU gets code for itself. What the host and the kernels
 * must agree on reaches them from its Java definition: on the command line
 * ({@code HASH_MULTIPLIER}), in a generated header ({@link KernelStructs}) or in the generated
 * source. Compiled images are kept on disk by a
 * hash of everything that goes into them, so a shape compiles once per machine, not once per
 * process.
 */
public final class KernelCompiler {
    private static final Logger LOG = LoggerFactory.getLogger(KernelCompiler.class);
    private static final String SOURCES = "/dev/starling/kernels/";
    /** Every header the sources include; {@code KernelSourcesTest} checks this against the folder. */
    static final List<String> HEADERS = List.of("types.cuh", "hash.cuh", "load.cuh", "row.cuh", "probe.cuh",
            "fold.cuh", "group_filter.cuh", "group_table.cuh", "distinct_set.cuh", "place.cuh", "order_key.cuh",
            "star_pipeline.cuh");

    private final Nvrtc nvrtc;
    private final int computeCapability;
    private final List<String> options;
    private final Map<String, String> headers;
    /** The digest of all that a compile depends on besides its source: NVRTC's version, the options, the headers. */
    private final byte[] environment;
    private final Path cache;
    private final AtomicLong compiled = new AtomicLong();
    private final AtomicLong compileNanos = new AtomicLong();
    private final AtomicLong cacheHits = new AtomicLong();

    private KernelCompiler(Nvrtc nvrtc, int computeCapability, Path cache) {
        this.nvrtc = nvrtc;
        this.computeCapability = computeCapability;
        this.options = options(computeCapability);
        this.headers = new LinkedHashMap<>();
        for (String h : HEADERS) {
            headers.put(h, source(h));
        }
        headers.putAll(generatedHeaders());
        MessageDigest digest = sha256();
        digest.update(nvrtc.version().getBytes(StandardCharsets.UTF_8));
        for (String o : options) {
            digest.update(o.getBytes(StandardCharsets.UTF_8));
        }
        for (Map.Entry<String, String> h : headers.entrySet()) {
            digest.update(h.getKey().getBytes(StandardCharsets.UTF_8));
            digest.update(h.getValue().getBytes(StandardCharsets.UTF_8));
        }
        this.environment = digest.digest();
        this.cache = cache;
    }

    /**
     * The compiler for devices of {@code computeCapability} (e.g. 90), keeping images under
     * {@code cache} (null: in memory only); empty, with why in {@code whyNot}, without NVRTC.
     */
    static Optional<KernelCompiler> forDevice(int computeCapability, Path cache, StringBuilder whyNot) {
        return Nvrtc.load(whyNot).map(n -> new KernelCompiler(n, computeCapability, cache));
    }

    /**
     * The compiler options for devices of {@code computeCapability}, which nvcc takes as well:
     * {@code --fmad=false} so that a * b + c rounds twice, as on the CPU, never fused into one.
     */
    public static List<String> options(int computeCapability) {
        return List.of("--gpu-architecture=sm_" + computeCapability, "--std=c++17", "--fmad=false",
                String.format("-DHASH_MULTIPLIER=0x%016xull", Hashing.MULTIPLIER));
    }

    /** The headers generated from Java definitions, by include name: nvcc builds find them in a folder they are written to. */
    public static Map<String, String> generatedHeaders() {
        return Map.of(KernelStructs.HEADER, KernelStructs.header());
    }

    /** The default folder for compiled kernels: {@code $XDG_CACHE_HOME/starling/kernels}, else under ~/.cache. */
    static Path defaultCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("starling").resolve("kernels");
    }

    /** The CUBIN of the kernels module's {@code name}.cu. */
    byte[] compileModule(String name) {
        return compile(name + ".cu", source(name + ".cu"));
    }

    /** The CUBIN of generated CUDA C {@code source} (named {@code name} in errors). */
    byte[] compile(String name, String source) {
        String key = key(source);
        Path file = cache == null ? null : cache.resolve(key + ".cubin");
        if (file != null && Files.isRegularFile(file)) {
            try {
                byte[] image = Files.readAllBytes(file);
                cacheHits.incrementAndGet();
                return image;
            } catch (IOException e) {
                LOG.debug("cannot read cached kernel {}: {}", file, e.getMessage());
            }
        }
        long start = System.nanoTime();
        byte[] image = nvrtc.compile(name, source, headers, options);
        long nanos = System.nanoTime() - start;
        compiled.incrementAndGet();
        compileNanos.addAndGet(nanos);
        LOG.debug("compiled {} ({} bytes of CUDA C) in {} ms", name, source.length(), nanos / 1_000_000);
        if (file != null) {
            store(file, image);
        }
        return image;
    }

    /** Kernels compiled by NVRTC, the time that took, and kernels read from the disk cache instead, since start. */
    public record Stats(long compiled, double compileMillis, long cacheHits) { }

    public Stats stats() {
        return new Stats(compiled.get(), compileNanos.get() / 1e6, cacheHits.get());
    }

    String describe() {
        return nvrtc.version() + ", sm_" + computeCapability;
    }

    private static void store(Path file, byte[] image) {
        try {
            Files.createDirectories(file.getParent());
            Path part = Files.createTempFile(file.getParent(), "kernel", ".part");
            Files.write(part, image);
            Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("cannot keep compiled kernel in {}: {}", file.getParent(), e.getMessage());
        }
    }

    private String key(String source) {
        MessageDigest digest = sha256();
        digest.update(environment);
        digest.update(source.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** A kernel source file of the {@code kernels} module, from the class path. */
    static String source(String file) {
        try (InputStream in = KernelCompiler.class.getResourceAsStream(SOURCES + file)) {
            if (in == null) {
                throw new GpuException("the kernel source " + file + " is not on the class path (the starling-kernels jar)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new GpuException("cannot read kernel source " + file + ": " + e.getMessage(), e);
        }
    }
}
