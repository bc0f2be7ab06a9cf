package dev.starling.server;

import dev.starling.engine.Starling;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Starts Starling on a data directory, loading the demo dataset into an empty one, with a SQL console. */
@Command(name = "starling", mixinStandardHelpOptions = true, version = "Starling 0.1.0",
        description = "GPU-accelerated SQL OLAP engine (CPU backend).")
public final class Main implements Callable<Integer> {

    @Option(names = "--data-dir", description = "Data directory (default: ${DEFAULT-VALUE}).")
    private Path dataDir = Path.of("data");

    @Option(names = "--demo-sf", description = "Scale factor of the demo dataset generated into an empty data directory (default: ${DEFAULT-VALUE}).")
    private double demoScaleFactor = 0.1;

    @Option(names = "--no-demo", description = "Do not generate the demo dataset.")
    private boolean noDemo;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public Integer call() {
        try (Starling db = Starling.open(dataDir)) {
            if (!noDemo) {
                DemoData.ensure(db, demoScaleFactor, System.out);
            }
            new SqlConsole(db, System.in, System.out).run();
        }
        return 0;
    }
}
