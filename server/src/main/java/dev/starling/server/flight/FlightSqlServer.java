package dev.starling.server.flight;

import dev.starling.engine.Starling;
import java.io.IOException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Starling served over Arrow Flight SQL (gRPC over plain TCP). */
public final class FlightSqlServer implements AutoCloseable {
    private final BufferAllocator allocator = new RootAllocator();
    private final FlightServer server;
    private final StarlingFlightSqlProducer producer;

    private FlightSqlServer(Starling db, String host, int port) throws IOException {
        this.producer = new StarlingFlightSqlProducer(db, allocator);
        this.server = FlightServer.builder(allocator, Location.forGrpcInsecure(host, port), producer).build().start();
    }

    /** Starts serving {@code db} on {@code host}:{@code port} (port 0: any free port). */
    public static FlightSqlServer start(Starling db, String host, int port) throws IOException {
        return new FlightSqlServer(db, host, port);
    }

    /** Queries whose results are streaming now. */
    public int runningQueries() {
        return producer.runningQueries();
    }

    public int port() {
        return server.getPort();
    }

    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    @Override
    public void close() throws Exception {
        server.shutdown();
        server.awaitTermination();
        producer.close();
        allocator.close();
    }
}
