package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.storage.Catalog;
import dev.starling.storage.gen.TpchGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Flight SQL server as clients meet it: round-trip latency of a trivial query through the
 * JDBC driver, time from starting the server process to its first answered query, and the
 * throughput of streaming a large result to a Flight SQL client (Arrow batches, no conversion)
 * and to a JDBC client (every value read as a Java object).
 */
@Command(name = "starling-flight-bench", mixinStandardHelpOptions = true,
        description = "Measures the Flight SQL server: latency, start-up, streaming throughput.")
public final class FlightBenchMain implements Callable<Integer> {

    @Option(names = "--sf", description = "TPC-H scale factor of the data (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--trivial-runs", description = "Timed runs of the trivial query (default: ${DEFAULT-VALUE}).")
    private int trivialRuns = 200;

    @Option(names = "--stream-runs", description = "Timed runs of streaming the large result to the Flight SQL "
            + "client, after one unmeasured run (default: ${DEFAULT-VALUE}).")
    private int streamRuns = 1;

    @Option(names = "--stream-only", description = "Only stream the large result to the Flight SQL client, from "
            + "data generated in memory (no start-up, trivial query or JDBC read).")
    private boolean streamOnly;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FlightBenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (streamOnly) {
            try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0)) {
                long start = System.nanoTime();
                TpchGenerator.generate(db.catalog(), scaleFactor, "");
                System.out.printf("TPC-H SF %s generated in memory in %.1f s; %d cores, Java %s%n", scaleFactor,
                        (System.nanoTime() - start) / 1e9, Runtime.getRuntime().availableProcessors(), Runtime.version());
                streamArrow(server.port(), "SELECT * FROM lineitem");
            }
            return 0;
        }
        Path dir = Files.createTempDirectory("starling-flight-bench");
        long start = System.nanoTime();
        try (Starling generated = Starling.open(dir)) {
            TpchGenerator.generate(generated.catalog(), scaleFactor, "");
        }
        System.out.printf("TPC-H SF %s generated into %s in %.1f s; %d cores, Java %s%n", scaleFactor, dir,
                (System.nanoTime() - start) / 1e9, Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.printf("process start to first answered query: %.0f ms (median of 3 starts)%n", startUp(dir));
        try (Starling db = Starling.open(dir); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0)) {
            String url = FlightJdbcRunner.url(server.port());
            try (Connection c = DriverManager.getConnection(url)) {
                double[] ms = new double[trivialRuns];
                for (int i = -20; i < trivialRuns; i++) {
                    long t = System.nanoTime();
                    JdbcResults.readAll(c, "SELECT 1");
                    if (i >= 0) {
                        ms[i] = (System.nanoTime() - t) / 1e6;
                    }
                }
                Arrays.sort(ms);
                System.out.printf("JDBC round trip of SELECT 1: median %.2f ms, p90 %.2f ms (%d warm runs)%n",
                        ms[ms.length / 2], ms[ms.length * 9 / 10], trivialRuns);
                String sql = "SELECT * FROM lineitem";
                long t = System.nanoTime();
                long rows = JdbcResults.readAll(c, sql);
                double s = (System.nanoTime() - t) / 1e9;
                System.out.printf("JDBC, %s: %d rows in %.2f s, %.2f M rows/s%n", sql, rows, s, rows / s / 1e6);
                streamArrow(server.port(), sql);
            }
        }
        return 0;
    }

    /** Starts the server as its own process on the generated data and polls until a query answers. */
    private double startUp(Path dir) throws Exception {
        double[] ms = new double[3];
        for (int i = 0; i < ms.length; i++) {
            int port = 42000 + i;
            List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"),
                    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                    "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                    "dev.starling.server.Main", "--data-dir", dir.toString(), "--no-demo", "--no-console",
                    "--port", String.valueOf(port));
            long start = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                String url = FlightJdbcRunner.url(port);
                while (true) {
                    try (Connection c = DriverManager.getConnection(url)) {
                        JdbcResults.readAll(c, "SELECT count(*) FROM region");
                        break;
                    } catch (SQLException notYet) {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("the server process exited with " + p.exitValue());
                        }
                        Thread.sleep(20);
                    }
                }
                ms[i] = (System.nanoTime() - start) / 1e6;
            } finally {
                p.destroy();
                p.waitFor();
            }
        }
        Arrays.sort(ms);
        return ms[1];
    }

    /**
     * Reads a result as Arrow batches through Flight SQL's own client, once unmeasured when timing
     * several runs, then {@link #streamRuns} times: rows/s and the bytes of the buffers received.
     */
    private void streamArrow(int port, String sql) throws Exception {
        for (int run = streamRuns > 1 ? -1 : 0; run < streamRuns; run++) {
            streamArrowOnce(port, sql, run < 0);
        }
    }

    private static void streamArrowOnce(int port, String sql, boolean warmUp) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", port)).build())) {
            long t = System.nanoTime();
            FlightInfo info = client.execute(sql);
            long rows = 0;
            long bytes = 0;
            long batches = 0;
            for (FlightEndpoint endpoint : info.getEndpoints()) {
                try (FlightStream stream = client.getStream(endpoint.getTicket())) {
                    while (stream.next()) {
                        VectorSchemaRoot root = stream.getRoot();
                        rows += root.getRowCount();
                        batches++;
                        for (FieldVector v : root.getFieldVectors()) {
                            bytes += v.getBufferSize();
                        }
                    }
                }
            }
            double s = (System.nanoTime() - t) / 1e9;
            System.out.printf("Flight SQL client, %s%s: %d rows in %d batches, %.2f s: %.2f M rows/s, %.0f MB/s%n",
                    sql, warmUp ? " (unmeasured)" : "", rows, batches, s, rows / s / 1e6, bytes / s / 1e6);
        }
    }
}
