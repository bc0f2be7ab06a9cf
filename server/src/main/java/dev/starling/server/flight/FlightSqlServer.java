package dev.starling.server.flight;

import dev.starling.engine.Starling;
import dev.starling.engine.data.IntakeLimits;
import dev.starling.server.config.ConfigLoader;
import dev.starling.server.config.ServerConfig;
import dev.starling.server.config.TlsFiles;
import dev.starling.server.queries.QueryLog;
import dev.starling.server.queries.QueryTracker;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.ServerSessionMiddleware;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Starling served over Arrow Flight SQL (gRPC, over TLS when configured), with password authentication when configured. */
public final class FlightSqlServer implements AutoCloseable {
    private final BufferAllocator allocator;
    private final FlightServer server;
    private final StarlingFlightSqlProducer producer;
    private final QueryTracker queries = new QueryTracker();
    /** The users' passwords, when the server asks for them; null when it does not. */
    private final PasswordValidator passwords;
    private final Privileges privileges;
    private boolean closed;

    private FlightSqlServer(Starling db, ServerConfig config) throws IOException {
        this.privileges = Privileges.of(config.auth(), config.query(), RoleGrants.in(db.catalog().dataDirectory()));
        this.allocator = new RootAllocator(config.memory().resultBufferBytes());
        queries.onEnd(new QueryLog());
        this.producer = new StarlingFlightSqlProducer(db, allocator, queries, privileges);
        // what the clients' data statements may take from outside the catalog
        db.setIntakeLimits(IntakeLimits.of(config.load().directories(db.catalog().dataDirectory().orElse(config.dataDir())),
                config.generate().maxScaleFactor()));
        ServerConfig.Listen listen = config.listen();
        Location location = config.tls().enabled()
                ? Location.forGrpcTls(listen.bind(), listen.port())
                : Location.forGrpcInsecure(listen.bind(), listen.port());
        FlightServer.Builder builder = FlightServer.builder(allocator, location, producer)
                .middleware(StarlingFlightSqlProducer.SESSION,
                        new ServerSessionMiddleware.Factory(() -> UUID.randomUUID().toString()));
        if (config.tls().enabled()) {
            TlsFiles tls = TlsFiles.read(config.tls());
            builder.useTls(new ByteArrayInputStream(tls.certChainPem()), new ByteArrayInputStream(tls.pkcs8KeyPem()));
        }
        this.passwords = config.auth().required() ? new PasswordValidator(config.auth().users()) : null;
        if (passwords != null) {
            builder.headerAuthenticator(BearerTokens.authenticator(passwords, Duration.ofMinutes(config.auth().tokenMinutes())));
        }
        try {
            this.server = builder.build().start();
        } catch (IOException | RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    /**
     * Whether {@code password} is {@code user}'s and the user an administrator (true for anyone
     * where the server asks for no passwords): the status page shows every user's statements.
     * Failed tries count towards the same throttle as Flight SQL logins.
     */
    public boolean admits(String user, String password) {
        if (passwords == null) {
            return true;
        }
        try {
            passwords.validate(user, password);
            return privileges.administers(user);
        } catch (org.apache.arrow.flight.FlightRuntimeException refused) {
            return false;
        }
    }

    /** Starts serving {@code db} as {@code config} says (listen address, authentication, TLS). */
    public static FlightSqlServer start(Starling db, ServerConfig config) throws IOException {
        return new FlightSqlServer(db, ConfigLoader.validate(config));
    }

    /** Starts serving {@code db} on {@code host}:{@code port} (port 0: any free port), no authentication. */
    public static FlightSqlServer start(Starling db, String host, int port) throws IOException {
        return start(db, new ServerConfig(new ServerConfig.Listen(host, port), null, null, null, null, null, null, null,
                null, null, null));
    }

    /** A bcrypt hash of a password, for {@code auth.users} in the configuration. */
    public static String hashPassword(char[] password) {
        return PasswordValidator.hash(password);
    }

    /** Queries running now. */
    public int runningQueries() {
        return queries.runningCount();
    }

    /** The queries running and recently ended; each that ends is written to the query log. */
    public QueryTracker queries() {
        return queries;
    }

    /** Bytes of result buffers held now, all sessions together. */
    public long bufferedBytes() {
        return allocator.getAllocatedMemory();
    }

    public int port() {
        return server.getPort();
    }

    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    /** Stops serving and frees the result buffers; once, whoever calls it first (a stop signal or the owner). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        try {
            server.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        allocator.close();
    }
}
