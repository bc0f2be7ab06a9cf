package dev.starling.shell;

import dev.starling.exec.ArrowBatches;
import dev.starling.exec.ArrowValues;
import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.storage.DataType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One client session on a Starling server over Arrow Flight SQL: statements run as prepared
 * statements (a query's rows are read from every endpoint; a statement without result columns is
 * an update), the session's cookie kept so its SET statements hold, and a password exchanged for
 * the bearer token every call carries.
 */
public final class FlightSqlConnection implements AutoCloseable {
    /** Where the server is and who connects. */
    public record Endpoint(String host, int port, boolean tls, Path rootCerts, String user, String password) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /** What a statement answered: its rows, or how many rows it wrote. */
    public sealed interface Answer permits Rows, Written { }

    /** A query's rows. */
    public record Rows(QueryResult result) implements Answer { }

    /** A data statement's (or SET's) count of rows written. */
    public record Written(long rows) implements Answer { }

    private final Endpoint endpoint;
    private final BufferAllocator allocator;
    private final FlightClient client;
    private final FlightSqlClient sql;
    private final CallOption[] options;
    private volatile Running running;

    private FlightSqlConnection(Endpoint endpoint, BufferAllocator allocator, FlightClient client, CallOption[] options) {
        this.endpoint = endpoint;
        this.allocator = allocator;
        this.client = client;
        this.sql = new FlightSqlClient(client);
        this.options = options;
    }

    /** Connects to {@code endpoint}, logging in when it names a user; a failure says why in words. */
    public static FlightSqlConnection open(Endpoint endpoint) {
        BufferAllocator allocator = new RootAllocator();
        FlightClient client = null;
        try {
            Location location = endpoint.tls() ? Location.forGrpcTls(endpoint.host(), endpoint.port())
                    : Location.forGrpcInsecure(endpoint.host(), endpoint.port());
            FlightClient.Builder builder = FlightClient.builder(allocator, location)
                    .intercept(new ClientCookieMiddleware.Factory());
            if (endpoint.tls()) {
                builder.useTls();
                if (endpoint.rootCerts() != null) {
                    // read when the client is built
                    builder.trustedCertificates(new ByteArrayInputStream(certificates(endpoint.rootCerts())));
                }
            }
            client = builder.build();
            CallOption[] options = new CallOption[0];
            if (endpoint.user() != null) {
                String user = endpoint.user();
                String password = endpoint.password() == null ? "" : endpoint.password();
                options = client.authenticateBasicToken(user, password).map(token -> new CallOption[] {token})
                        .orElse(options);
            }
            return new FlightSqlConnection(endpoint, allocator, client, options);
        } catch (FlightRuntimeException e) {
            close(client, allocator);
            throw ShellException.of(e, endpoint);
        } catch (IllegalArgumentException e) {
            // certificates that are not PEM, a host that is not one
            close(client, allocator);
            throw new ShellException((endpoint.rootCerts() != null ? "cannot use the certificates in "
                    + endpoint.rootCerts() : "cannot connect to " + endpoint) + ": " + e.getMessage(), false);
        } catch (RuntimeException e) {
            close(client, allocator);
            throw e;
        }
    }

    private static byte[] certificates(Path pem) {
        try {
            return Files.readAllBytes(pem);
        } catch (IOException e) {
            throw new ShellException("cannot read the certificates in " + pem + ": " + e.getMessage(), false);
        }
    }

    /** Runs one statement; its error, the server's words, comes as a {@link ShellException}. */
    public Answer run(String statement) {
        try {
            FlightSqlClient.PreparedStatement prepared = sql.prepare(statement, options);
            try {
                Schema schema = prepared.getResultSetSchema();
                if (schema.getFields().isEmpty()) {
                    return new Written(prepared.executeUpdate(options));
                }
                FlightInfo info = prepared.execute(options);
                running = new Running(info);
                try {
                    return new Rows(read(schema, info));
                } finally {
                    running = null;
                }
            } finally {
                // with the session's token: close() alone would call without it
                prepared.close(options);
            }
        } catch (FlightRuntimeException e) {
            throw ShellException.of(e, endpoint);
        }
    }

    /** Asks the server to stop the statement running now, if any (from another thread: Ctrl-C). */
    public void cancel() {
        Running now = running;
        if (now != null) {
            now.cancel();
        }
    }

    private QueryResult read(Schema schema, FlightInfo info) {
        List<Field> fields = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field f : schema.getFields()) {
            // a type Starling has not (none comes from it) is shown as text
            fields.add(new Field(f.getName(), ArrowBatches.dataType(f.getType()).orElse(DataType.VARCHAR), f.isNullable()));
        }
        List<List<Object>> rows = new ArrayList<>();
        for (FlightEndpoint endpoint : info.getEndpoints()) {
            try (FlightStream stream = sql.getStream(endpoint.getTicket(), options)) {
                running.streaming(stream);
                while (stream.next()) {
                    rows.addAll(ArrowValues.rows(stream.getRoot()));
                }
            } catch (FlightRuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new ShellException("reading the result failed" + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                        false);
            }
        }
        return new QueryResult(fields, rows);
    }

    @Override
    public void close() {
        close(client, allocator);
    }

    private static void close(FlightClient client, BufferAllocator allocator) {
        try {
            if (client != null) {
                client.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            allocator.close();
        }
    }

    /** The statement running now: its flight, and the stream being read, which a cancel stops. */
    private final class Running {
        private final FlightInfo info;
        private volatile FlightStream stream;

        Running(FlightInfo info) {
            this.info = info;
        }

        void streaming(FlightStream now) {
            stream = now;
        }

        void cancel() {
            try {
                sql.cancelFlightInfo(new CancelFlightInfoRequest(info), options);
            } catch (FlightRuntimeException ignored) {
                // the statement ended meanwhile, or the server cannot cancel it: the stream's cancel below still stops the read
            }
            FlightStream now = stream;
            if (now != null) {
                now.cancel("cancelled", null);
            }
        }
    }
}
