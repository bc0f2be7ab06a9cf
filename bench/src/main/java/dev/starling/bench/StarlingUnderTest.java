package dev.starling.bench;

import dev.starling.engine.GpuOptions;
import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.gpu.GpuBackend;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.storage.Catalog;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Starling over a benchmark's catalog, reached the ways {@code --via} says: through a Flight SQL
 * server in this process and the JDBC driver (as analysts meet it), or through the embedded API.
 * Only this class and the runners it makes name the engine, so a DuckDB-only run never loads it.
 */
final class StarlingUnderTest implements AutoCloseable {
    enum Via { FLIGHT, EMBEDDED }

    private final Starling db;
    private final FlightSqlServer server;

    /** {@code serve}: whether clients will come through Flight SQL (a server is started for them). */
    StarlingUnderTest(Catalog catalog, boolean serve) throws IOException {
        this(catalog, serve, GpuOptions.DEFAULT);
    }

    /** The same, its GPU backend opened with {@code gpu} (a device memory budget, say). */
    StarlingUnderTest(Catalog catalog, boolean serve, GpuOptions gpu) throws IOException {
        db = Starling.over(catalog, gpu);
        server = serve ? FlightSqlServer.start(db, "127.0.0.1", 0) : null;
    }

    /** The port of the Flight SQL server it started. */
    int port() {
        return server.port();
    }

    /** Its GPU backend, where this process has one. */
    Optional<GpuBackend> gpu() {
        return db.gpu();
    }

    /** A client coming {@code via} the server or the embedded API, asking for {@code backend}; the caller closes it. */
    QueryRunner client(Via via, BackendMode backend) throws SQLException {
        if (via == Via.EMBEDDED) {
            return new StarlingRunner(db, backend);
        }
        if (server == null) {
            throw new IllegalStateException("no server was started for Flight SQL clients");
        }
        return new FlightJdbcRunner(server.port(), backend);
    }

    /** Whether this process has a GPU backend (the GPU and both modes fall back to the CPU without one). */
    boolean hasGpu() {
        return db.gpu().isPresent();
    }

    /** The GPU the process runs on, in words (call where {@link #hasGpu}). */
    String gpuName() {
        return db.gpu().orElseThrow().device().describe();
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.close();
        }
        db.close();
    }
}
