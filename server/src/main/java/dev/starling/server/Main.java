package dev.starling.server;

import dev.starling.engine.Starling;
import dev.starling.server.flight.FlightSqlServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts Starling on a data directory (loading the demo dataset into an empty one) and serves it
 * over Arrow Flight SQL; in a terminal, also opens a SQL console on the same engine.
 */
@Command(name = "starling", mixinStandardHelpOptions = true, version = "Starling 0.1.0",
        description = "GPU-accelerated SQL OLAP server (Arrow Flight SQL).")
public final class Main implements Callable<Integer> {

    @Option(names = "--data-dir", description = "Data directory (default: ${DEFAULT-VALUE}).")
    private Path dataDir = Path.of("data");

    @Option(names = "--demo-sf", description = "Scale factor of the demo dataset generated into an empty data directory (default: ${DEFAULT-VALUE}).")
    private double demoScaleFactor = 0.1;

    @Option(names = "--no-demo", description = "Do not generate the demo dataset.")
    private boolean noDemo;

    @Option(names = "--port", description = "Flight SQL port (default: ${DEFAULT-VALUE}).")
    private int port = 32010;

    // There is no authentication yet, so by default only this machine can connect.
    @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}; no authentication yet, so keep it local).")
    private String bind = "127.0.0.1";

    @Option(names = "--console", negatable = true, description = "Open a SQL console on the engine (default: when run in a terminal).")
    private Boolean console;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (Starling db = Starling.open(dataDir)) {
            if (!noDemo) {
                DemoData.ensure(db, demoScaleFactor, System.out);
            }
            try (FlightSqlServer server = FlightSqlServer.start(db, bind, port)) {
                System.out.printf("Serving Arrow Flight SQL on %s:%d (JDBC: jdbc:arrow-flight-sql://%s:%d/?useEncryption=false)%n",
                        bind, server.port(), bind, server.port());
                if (console != null ? console : System.console() != null) {
                    new SqlConsole(db, System.in, System.out).run();
                } else {
                    server.awaitTermination();
                }
            }
        }
        return 0;
    }
}
