package dev.starling.server.config;

import dev.starling.engine.GpuOptions;
import dev.starling.engine.Starling;
import dev.starling.exec.Settings;
import dev.starling.gpu.cuda.HostMemoryPools;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The server's configuration, as {@code conf/starling.yaml} spells it (snake_case keys; every key
 * optional, with the default given here), then environment variables, then command-line flags.
 */
public record ServerConfig(Listen listen, Path dataDir, Demo demo, Auth auth, Tls tls, Gpu gpu, Memory memory,
                           Http http, Query query, Load load, Generate generate) {

    public ServerConfig {
        listen = listen == null ? new Listen(null, null) : listen;
        dataDir = dataDir == null ? Path.of("data") : dataDir;
        demo = demo == null ? new Demo(null, null) : demo;
        auth = auth == null ? new Auth(null, null, null) : auth;
        tls = tls == null ? new Tls(null, null) : tls;
        gpu = gpu == null ? new Gpu(null, null, null, null, null, null, null, null) : gpu;
        memory = memory == null ? new Memory(null, null) : memory;
        http = http == null ? new Http(null, null, null) : http;
        query = query == null ? new Query(null, null, null) : query;
        load = load == null ? new Load(null) : load;
        generate = generate == null ? new Generate(null) : generate;
    }

    public static ServerConfig defaults() {
        return new ServerConfig(null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * The directories LOAD reads files from (a relative file name is under the first); none set:
     * the data directory's {@code import}.
     */
    public record Load(List<Path> allowedDirs) {
        public Load {
            allowedDirs = allowedDirs == null ? List.of() : List.copyOf(allowedDirs);
        }

        /** The directories for a server whose data directory is {@code dataDir}. */
        public List<Path> directories(Path dataDir) {
            return allowedDirs.isEmpty() ? List.of(dataDir.resolve("import")) : allowedDirs;
        }
    }

    /** The largest scale factor a client's GENERATE makes (the demo data set up at start is not bound by it). */
    public record Generate(Double maxScaleFactor) {
        public Generate {
            maxScaleFactor = maxScaleFactor == null ? 10 : maxScaleFactor;
        }
    }

    /**
     * Limits of every session's queries unless it sets its own: {@code timeout}, how long a query
     * may run (seconds, or a number with ms, s, min or h; 0: no limit), as {@code SET query_timeout};
     * {@code memoryLimit}, the host memory a query's join tables, groups and buffered rows may hold
     * (bytes, or a number with KB, MB, GB, TB or KiB, MiB, GiB, TiB; 0: no limit), as
     * {@code SET memory_limit}; and of the server's: {@code maxRunning}, how many queries run at once
     * (the others wait their turn; default four a processor).
     */
    public record Query(String timeout, Integer maxRunning, String memoryLimit) {
        public Query {
            timeout = timeout == null ? "0" : timeout;
            maxRunning = maxRunning == null ? Starling.defaultMaxRunning() : maxRunning;
            memoryLimit = memoryLimit == null ? "0" : memoryLimit;
        }

        /** The limit; an ill-formed one is an {@link IllegalArgumentException} naming the key. */
        public Duration timeoutDuration() {
            return Settings.duration("query.timeout", timeout);
        }

        /** The memory limit in bytes; an ill-formed one is an {@link IllegalArgumentException} naming the key. */
        public long memoryLimitBytes() {
            return Settings.size("query.memory_limit", memoryLimit);
        }
    }

    /**
     * The HTTP port for operators: {@code /health}, {@code /metrics} (Prometheus) and
     * {@code /queries} (running and recent queries); on the loopback address by default, and on the
     * port after Flight SQL's unless one is set, so that two servers never collide on it.
     */
    public record Http(Boolean enabled, String bind, Integer port) {
        public Http {
            enabled = enabled == null || enabled;
            bind = bind == null ? "127.0.0.1" : bind;
        }

        /** The port to listen on beside Flight SQL's {@code flightPort}: the one set, else the next (any free one for 0). */
        public int portBeside(int flightPort) {
            return port != null ? port : flightPort == 0 ? 0 : flightPort + 1;
        }
    }

    /**
     * Off-heap memory for results on their way to clients (Arrow buffers of all sessions together);
     * a query that needs more fails with RESOURCE_EXHAUSTED instead of taking the process down. And
     * {@code queryStateBytes}: the state (join tables, groups, sorted rows) that running queries may
     * hold together as the optimizer estimates it; a query past it waits for its turn (default half
     * the heap).
     */
    public record Memory(Long resultBufferBytes, Long queryStateBytes) {
        public Memory {
            resultBufferBytes = resultBufferBytes == null ? 1L << 30 : resultBufferBytes;
            queryStateBytes = queryStateBytes == null ? Starling.defaultQueryStateBytes() : queryStateBytes;
        }
    }

    /** Where clients connect; port 0 takes any free port. */
    public record Listen(String bind, Integer port) {
        public Listen {
            bind = bind == null ? "127.0.0.1" : bind;
            port = port == null ? 32010 : port;
        }
    }

    /** The dataset generated into an empty data directory: TPC-H, and SSB in schema {@code ssb}. */
    public record Demo(Boolean enabled, Double scaleFactor) {
        public Demo {
            enabled = enabled == null || enabled;
            scaleFactor = scaleFactor == null ? 0.1 : scaleFactor;
        }
    }

    /**
     * {@code mode: none} (no credentials; only on a loopback address; every client an
     * administrator) or {@code mode: password} (users with bcrypt hashes and roles; a password buys
     * a bearer token valid {@code token_minutes}).
     */
    public record Auth(String mode, List<User> users, Integer tokenMinutes) {
        public Auth {
            mode = mode == null ? "none" : mode;
            users = users == null ? List.of() : List.copyOf(users);
            tokenMinutes = tokenMinutes == null ? 60 : tokenMinutes;
        }

        public boolean required() {
            return mode.equals("password");
        }
    }

    /** A user who logs in with a password whose bcrypt hash is {@code passwordHash}, with {@code role} (reader unless set). */
    public record User(String name, String passwordHash, String role) {
        public User {
            role = role == null ? Role.READER.key() : role;
        }

        public User(String name, String passwordHash) {
            this(name, passwordHash, null);
        }
    }

    /** TLS when both a certificate chain and its private key (PEM, PKCS#8 or PKCS#1; {@link TlsFiles}) are given. */
    public record Tls(Path cert, Path key) {
        public boolean enabled() {
            return cert != null;
        }
    }

    /**
     * The GPU backend: whether to use one, which, its device memory budget in bytes (0: most of
     * it), the pinned host memory kept for reuse (for mapped ranges' host parts, and for build keys
     * and shared tables), how much table memory may be page-locked in place for scans, the tables whose columns stay in GPU memory from start-up on, and the
     * device profile queries are planned for (null: the detected GPU's).
     */
    public record Gpu(Boolean enabled, Integer device, Long budgetBytes, Long pinnedKeepBytes, Long mappedKeepBytes,
                      Long pinnedTableBytes, List<String> residentTables, String profile) {
        public Gpu {
            enabled = enabled == null || enabled;
            device = device == null ? 0 : device;
            budgetBytes = budgetBytes == null ? 0 : budgetBytes;
            pinnedKeepBytes = pinnedKeepBytes == null ? HostMemoryPools.DEFAULT.pinnedKeepBytes() : pinnedKeepBytes;
            mappedKeepBytes = mappedKeepBytes == null ? HostMemoryPools.DEFAULT.mappedKeepBytes() : mappedKeepBytes;
            pinnedTableBytes = pinnedTableBytes == null ? HostMemoryPools.DEFAULT.pinnedTableBytes() : pinnedTableBytes;
            residentTables = residentTables == null ? List.of() : List.copyOf(residentTables);
        }

        public Gpu withProfile(String name) {
            return new Gpu(enabled, device, budgetBytes, pinnedKeepBytes, mappedKeepBytes, pinnedTableBytes, residentTables,
                    name);
        }

        /** The engine's view of these settings. */
        public GpuOptions options() {
            return new GpuOptions(enabled, device, budgetBytes, new HostMemoryPools(pinnedKeepBytes, mappedKeepBytes,
                    pinnedTableBytes),
                    profile);
        }
    }
}
