package dev.starling.server;

import dev.starling.engine.PlannerWarmUp;
import dev.starling.engine.Starling;
import dev.starling.storage.DataDirectoryInUseException;
import dev.starling.server.config.ConfigException;
import dev.starling.server.config.ConfigLoader;
import dev.starling.server.config.ServerConfig;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.server.http.HttpEndpoint;
import dev.starling.server.metrics.ServerMetrics;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts Starling on a data directory (loading the demo dataset into an empty one) and serves it
 * over Arrow Flight SQL; in a terminal, also opens a SQL console on the same engine. Settings come
 * from the configuration file, then environment variables, then these flags.
 */
@Command(name = "starling", mixinStandardHelpOptions = true, version = "Starling 0.1.0",
        description = "GPU-accelerated SQL OLAP server (Arrow Flight SQL).")
public final class Main implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    @Option(names = "--config", description = "Configuration file (default: conf/starling.yaml in the working directory, else the distribution's).")
    private Path config;

    @Option(names = "--data-dir", description = "Data directory (config: data_dir; default data).")
    private Path dataDir;

    @Option(names = "--port", description = "Flight SQL port (config: listen.port; default 32010).")
    private Integer port;

    @Option(names = "--http-port", description = "HTTP port of /health, /metrics and /queries (config: http.port; default: the Flight SQL port + 1).")
    private Integer httpPort;

    @Option(names = "--bind", description = "Address to listen on (config: listen.bind; default 127.0.0.1).")
    private String bind;

    @Option(names = "--demo-sf", description = "Scale factor of the demo dataset generated into an empty data directory (config: demo.scale_factor; default 0.1).")
    private Double demoScaleFactor;

    @Option(names = "--no-demo", description = "Do not generate the demo dataset (config: demo.enabled).")
    private boolean noDemo;

    @Option(names = "--gpu-profile", description = "GPU to plan for (config: gpu.profile; default: the detected GPU's): h100-80gb, h200-141gb or a100-80gb.")
    private String gpuProfile;

    @Option(names = "--console", negatable = true, description = "Open a SQL console on the engine (default: when run in a terminal).")
    private Boolean console;

    @Option(names = "--hash-password", description = "Read a password from standard input, print its bcrypt hash for auth.users, and exit.")
    private boolean hashPassword;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            if (e instanceof ConfigException) {
                line.getErr().println("starling: configuration error: " + e.getMessage());
                return 2;
            }
            if (e instanceof DataDirectoryInUseException) {
                line.getErr().println("starling: " + e.getMessage());
                return 3;
            }
            if (e instanceof PortInUseException) {
                line.getErr().println("starling: " + e.getMessage());
                return 4;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (hashPassword) {
            String password = new BufferedReader(new InputStreamReader(System.in)).readLine();
            System.out.println(FlightSqlServer.hashPassword(password == null ? new char[0] : password.toCharArray()));
            return 0;
        }
        ServerConfig c = ConfigLoader.validate(withFlags(ConfigLoader.load(configFile(), System.getenv())));
        int httpPort = c.http().portBeside(c.listen().port());
        // a taken Flight SQL port is found now, not after minutes of generating demo data
        if (c.listen().port() != 0) {
            listen("listen.port", c.listen().port(), () -> {
                new java.net.ServerSocket(c.listen().port(), 1, java.net.InetAddress.getByName(c.listen().bind())).close();
                return null;
            });
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (HttpEndpoint http = c.http().enabled() ? listen("http.port", httpPort, () -> HttpEndpoint.start(c.http().bind(), httpPort)) : null;
             Starling db = Starling.open(c.dataDir(), c.gpu().options())) {
            if (http != null) {
                LOG.info("HTTP on http://{}:{}: /health, /metrics, /queries", c.http().bind(), http.port());
            }
            // the first query would otherwise pay for loading and compiling the planner's code
            CompletableFuture<Void> warmedUp = PlannerWarmUp.inBackground(db.gpuProfile());
            db.setSettings(db.settings().with("query_timeout", c.query().timeout())
                    .with("memory_limit", c.query().memoryLimit()));
            db.setAdmission(c.query().maxRunning(), c.memory().queryStateBytes());
            if (c.load().allowedDirs().isEmpty()) {
                // the default load directory, where an operator puts the files to LOAD
                Files.createDirectories(c.load().directories(c.dataDir()).get(0));
            }
            if (c.demo().enabled()) {
                DemoData.ensure(db, c.demo().scaleFactor());
            }
            if (db.gpu().isEmpty() && !c.gpu().residentTables().isEmpty()) {
                LOG.warn("No GPU backend: gpu.resident_tables has no effect");
            } else {
                for (String table : c.gpu().residentTables()) {
                    db.query("ALTER TABLE " + table + " SET (gpu_resident = true)");
                    LOG.info("Table {} is resident in GPU memory", table);
                }
            }
            try (FlightSqlServer server = listen("listen.port", c.listen().port(), () -> FlightSqlServer.start(db, c));
                 ServerMetrics metrics = new ServerMetrics(db, server.queries(), server::bufferedBytes)) {
                String host = c.listen().bind();
                LOG.info("Serving Arrow Flight SQL on {}:{}{} (JDBC: jdbc:arrow-flight-sql://{}:{}/?useEncryption={}{})",
                        host, server.port(), c.tls().enabled() ? " over TLS" : "", host, server.port(),
                        c.tls().enabled(), c.auth().required() ? "&user=...&password=..." : "");
                warmedUp.join();
                if (http != null) {
                    http.ready(metrics, server.queries(), () -> health(db, server),
                            c.auth().required() ? server::admits : null);
                }
                // a stop signal (docker stop) ends the service and lets the resources above close
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    LOG.info("Stopping");
                    server.close();
                    try {
                        stopped.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "shutdown"));
                if (console != null ? console : System.console() != null) {
                    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
                        new SqlConsole(db, terminal, Path.of(System.getProperty("user.home"), ".starling_history")).run();
                        LOG.info("Console closed; serving until stopped (Ctrl-C or a stop signal)");
                        // JLine holds the terminal's signals while it is open (and would give Ctrl-C back
                        // as a kill without shutdown hooks): Ctrl-C stops the server as it does without a console
                        terminal.handle(Terminal.Signal.INT, signal -> System.exit(130));
                        server.awaitTermination();
                    }
                } else {
                    server.awaitTermination();
                }
            }
        } finally {
            stopped.countDown();
        }
        return 0;
    }

    /** What {@code /health} says of a ready server besides that it is ready. */
    private static Map<String, Object> health(Starling db, FlightSqlServer server) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("flight_sql_port", server.port());
        facts.put("tables", db.catalog().tables().size());
        facts.put("gpu", db.gpu().map(g -> g.device().name()).orElse("none"));
        return facts;
    }

    /** A server that cannot listen where {@code key} says, because the port is taken. */
    static final class PortInUseException extends Exception {
        PortInUseException(String message) {
            super(message);
        }
    }

    private interface Listening<T> {
        T start() throws java.io.IOException;
    }

    /** Starts what listens on {@code port}; a port in use is an error that names it and the key that set it. */
    private static <T> T listen(String key, int port, Listening<T> start) throws Exception {
        try {
            return start.start();
        } catch (java.io.IOException e) {
            if (e instanceof BindException || e.getCause() instanceof BindException) {
                throw new PortInUseException("port " + port + " (" + key + ") is in use by another process; "
                        + "choose another with " + key + " or its flag");
            }
            throw e;
        }
    }

    private Path configFile() {
        if (config != null) {
            return config;
        }
        Path standard = Path.of("conf", "starling.yaml");
        if (Files.exists(standard)) {
            return standard;
        }
        // the distribution's own, wherever it was started from
        String home = System.getProperty("starling.home");
        Path shipped = home == null ? null : Path.of(home, "conf", "starling.yaml");
        return shipped != null && Files.exists(shipped) ? shipped : null;
    }

    private ServerConfig withFlags(ServerConfig c) {
        ServerConfig.Listen listen = new ServerConfig.Listen(bind != null ? bind : c.listen().bind(),
                port != null ? port : c.listen().port());
        ServerConfig.Demo demo = new ServerConfig.Demo(!noDemo && c.demo().enabled(),
                demoScaleFactor != null ? demoScaleFactor : c.demo().scaleFactor());
        return new ServerConfig(listen, dataDir != null ? dataDir : c.dataDir(), demo, c.auth(), c.tls(),
                gpuProfile != null ? c.gpu().withProfile(gpuProfile) : c.gpu(), c.memory(),
                httpPort != null ? new ServerConfig.Http(c.http().enabled(), c.http().bind(), httpPort) : c.http(),
                c.query(), c.load(), c.generate());
    }
}
