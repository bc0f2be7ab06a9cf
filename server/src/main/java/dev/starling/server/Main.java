package dev.starling.server;

import dev.starling.engine.Starling;
import dev.starling.storage.DataDirectoryInUseException;
import dev.starling.server.config.ConfigException;
import dev.starling.server.config.ConfigLoader;
import dev.starling.server.config.ServerConfig;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.server.metrics.MetricsEndpoint;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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

    @Option(names = "--config", description = "Configuration file (default: conf/starling.yaml when it exists).")
    private Path config;

    @Option(names = "--data-dir", description = "Data directory (config: data_dir; default data).")
    private Path dataDir;

    @Option(names = "--port", description = "Flight SQL port (config: listen.port; default 32010).")
    private Integer port;

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
        try (Starling db = Starling.open(c.dataDir(), c.gpu().options())) {
            db.setSettings(db.settings().with("query_timeout", c.query().timeout()));
            if (c.demo().enabled()) {
                DemoData.ensure(db, c.demo().scaleFactor(), System.out);
            }
            if (db.gpu().isEmpty() && !c.gpu().residentTables().isEmpty()) {
                System.out.println("No GPU backend: gpu.resident_tables has no effect");
            } else {
                for (String table : c.gpu().residentTables()) {
                    db.query("ALTER TABLE " + table + " SET (gpu_resident = true)");
                    System.out.printf("Table %s is resident in GPU memory%n", table);
                }
            }
            try (FlightSqlServer server = FlightSqlServer.start(db, c);
                 MetricsEndpoint metrics = c.metrics().enabled() ? MetricsEndpoint.start(c.metrics().bind(),
                         c.metrics().port(), db, server.metrics(), server::bufferedBytes) : null) {
                String host = c.listen().bind();
                System.out.printf("Serving Arrow Flight SQL on %s:%d%s (JDBC: jdbc:arrow-flight-sql://%s:%d/?useEncryption=%s%s)%n",
                        host, server.port(), c.tls().enabled() ? " over TLS" : "", host, server.port(),
                        c.tls().enabled(), c.auth().required() ? "&user=...&password=..." : "");
                if (metrics != null) {
                    System.out.printf("Metrics on http://%s:%d/metrics%n", c.metrics().bind(), metrics.port());
                }
                if (console != null ? console : System.console() != null) {
                    new SqlConsole(db, System.in, System.out).run();
                } else {
                    server.awaitTermination();
                }
            }
        }
        return 0;
    }

    private Path configFile() {
        if (config != null) {
            return config;
        }
        Path standard = Path.of("conf", "starling.yaml");
        return Files.exists(standard) ? standard : null;
    }

    private ServerConfig withFlags(ServerConfig c) {
        ServerConfig.Listen listen = new ServerConfig.Listen(bind != null ? bind : c.listen().bind(),
                port != null ? port : c.listen().port());
        ServerConfig.Demo demo = new ServerConfig.Demo(!noDemo && c.demo().enabled(),
                demoScaleFactor != null ? demoScaleFactor : c.demo().scaleFactor());
        return new ServerConfig(listen, dataDir != null ? dataDir : c.dataDir(), demo, c.auth(), c.tls(),
                gpuProfile != null ? c.gpu().withProfile(gpuProfile) : c.gpu(), c.memory(), c.metrics(), c.query());
    }
}
