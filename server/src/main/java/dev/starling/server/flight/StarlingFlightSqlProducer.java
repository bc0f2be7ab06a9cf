package dev.starling.server.flight;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.protobuf.Message;
import io.grpc.Context;
import dev.starling.engine.PreparedQuery;
import dev.starling.engine.Starling;
import dev.starling.engine.data.DataStatement;
import dev.starling.engine.data.Ingest;
import dev.starling.engine.data.RecordBatches;
import dev.starling.engine.data.SessionNames;
import dev.starling.planner.SqlPlanner;
import dev.starling.planner.explain.PlanExplainer;
import dev.starling.exec.QueryContext;
import dev.starling.exec.Settings;
import dev.starling.server.queries.QueryTracker;
import dev.starling.server.queries.QueryStatus;
import dev.starling.server.queries.TrackedQuery;
import dev.starling.exec.ArrowBatches;
import dev.starling.exec.plan.Field;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.ServerSessionMiddleware;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCatalogs;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetExportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetImportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTableTypes;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutPreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlTransactionIsolationLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.MDC;

/**
 * Starling's Flight SQL service: queries (ad hoc, and prepared statements, which is how the JDBC
 * driver runs every query) are planned when the client asks for their FlightInfo, so bad SQL fails
 * there with its position, and run when the client reads the ticket, streamed batch by batch
 * (a prepared query is planned again if tables changed since); data statements (CREATE and DROP
 * TABLE, INSERT, LOAD, GENERATE) run as updates and report the rows they wrote; the
 * catalog metadata calls JDBC tools browse with (tables, columns, keys, types); and the server's SqlInfo. Calls not implemented
 * here answer UNIMPLEMENTED.
 */
public final class StarlingFlightSqlProducer extends NoOpFlightSqlProducer {
    private final Starling db;
    private final Privileges privileges;
    private final QueryTracker queries;
    private final ResultStreamer streamer;
    private final CatalogMetadata metadata;
    private final KeyMetadata keys;
    private final TypeMetadata types;
    private final SqlInfoBuilder sqlInfo;
    /** The middleware that gives each client connection a session (a cookie the JDBC driver keeps). */
    public static final FlightServerMiddleware.Key<ServerSessionMiddleware> SESSION =
            FlightServerMiddleware.Key.of("starling-session");
    private static final int UUID_LENGTH = 36;
    /** Each session's settings (SET); sessions idle this long are forgotten (and get the server's). */
    private final Cache<String, Settings> sessionSettings =
            CacheBuilder.newBuilder().expireAfterAccess(Duration.ofHours(12)).build();
    private final Map<ByteString, Prepared> prepared = new ConcurrentHashMap<>();
    /** Ad hoc queries planned for a FlightInfo, by ticket id, until their ticket is read. */
    private final Cache<String, Prepared> planned =
            CacheBuilder.newBuilder().expireAfterWrite(Duration.ofMinutes(10)).maximumSize(10_000).build();
    private final BufferAllocator allocator;

    /**
     * A prepared statement, the catalog version it was planned against, its bound parameter values,
     * and the time its planning took that no run has reported yet (the first run reports it).
     */
    private record Prepared(PreparedQuery query, long catalogVersion, List<Object> parameters, AtomicLong planNanos) {
        Prepared(PreparedQuery query, long catalogVersion, List<Object> parameters, long planNanos) {
            this(query, catalogVersion, parameters, new AtomicLong(planNanos));
        }

        Prepared withParameters(List<Object> values) {
            return new Prepared(query, catalogVersion, values, planNanos);
        }
    }

    /**
     * The hash of each plan's text (literals included), by which the query log groups runs of one
     * plan: computed once per plan the engine hands out (a repeated statement gets the same one
     * from its plan cache), when a run of it starts, and forgotten with the plan.
     */
    private final Map<PreparedQuery, String> planHashes = CacheBuilder.newBuilder().weakKeys()
            .<PreparedQuery, String>build().asMap();

    public StarlingFlightSqlProducer(Starling db, BufferAllocator allocator, QueryTracker queries, Privileges privileges) {
        this.db = db;
        this.privileges = privileges;
        this.allocator = allocator;
        this.queries = queries;
        this.streamer = new ResultStreamer(db, allocator, queries);
        this.metadata = new CatalogMetadata(db.catalog(), allocator, db::viewColumns);
        this.keys = new KeyMetadata(db.catalog(), allocator);
        this.types = new TypeMetadata(allocator);
        this.sqlInfo = new SqlInfoBuilder()
                .withFlightSqlServerName("Starling")
                .withFlightSqlServerVersion("0.1.0")
                .withFlightSqlServerArrowVersion(Schema.class.getPackage().getImplementationVersion() == null
                        ? "18.3.0" : Schema.class.getPackage().getImplementationVersion())
                .withFlightSqlServerReadOnly(false)
                .withFlightSqlServerSql(true)
                .withFlightSqlServerSubstrait(false)
                .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
                .withFlightSqlServerCancel(true)
                .withFlightSqlServerBulkIngestion(true)
                .withFlightSqlServerBulkIngestionTransaction(false)
                .withSqlIdentifierQuoteChar("\"")
                .withSqlKeywords(SqlPlanner.nonStandardKeywords().toArray(String[]::new))
                // Unquoted names are folded to lower case; quoted ones are kept, and matched ignoring case.
                .withSqlIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_LOWERCASE)
                .withSqlQuotedIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlNullOrdering(SqlNullOrdering.SQL_NULLS_SORTED_AT_END)
                // Each statement is atomic on its own; there are no multi-statement transactions.
                .withSqlTransactionsSupported(false)
                .withSqlDefaultTransactionIsolation(SqlTransactionIsolationLevel.SQL_TRANSACTION_NONE_VALUE)
                .withSqlStoredProceduresSupported(false)
                .withSqlSelectForUpdateSupported(false)
                .withSqlDdlCatalog(false)
                .withSqlDdlSchema(false)
                .withSqlDdlTable(true);
    }

    @Override
    public void createPreparedStatement(ActionCreatePreparedStatementRequest request, CallContext context,
                                        StreamListener<Result> listener) {
        try {
            Prepared planned = plan(request.getQuery(), context);
            PreparedQuery query = planned.query();
            ByteString handle = ByteString.copyFromUtf8(UUID.randomUUID().toString());
            prepared.put(handle, planned);
            List<Field> parameters = new ArrayList<>();
            for (int i = 0; i < query.parameters().size(); i++) {
                parameters.add(new Field("p" + (i + 1), query.parameters().get(i), true));
            }
            ActionCreatePreparedStatementResult result = ActionCreatePreparedStatementResult.newBuilder()
                    .setPreparedStatementHandle(handle)
                    .setDatasetSchema(ByteString.copyFrom(ResultSchema.of(query.fields()).serializeAsMessage()))
                    .setParameterSchema(ByteString.copyFrom(ArrowBatches.schema(parameters).serializeAsMessage()))
                    .build();
            listener.onNext(new Result(Any.pack(result).toByteArray()));
            listener.onCompleted();
        } catch (RuntimeException e) {
            listener.onError(FlightErrors.of(e));
        }
    }

    @Override
    public void closePreparedStatement(ActionClosePreparedStatementRequest request, CallContext context,
                                       StreamListener<Result> listener) {
        prepared.remove(request.getPreparedStatementHandle());
        listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
                                                     FlightDescriptor descriptor) {
        return info(resultSchema(preparedQuery(command.getPreparedStatementHandle(), context).query()), command,
                descriptor);
    }

    @Override
    public void getStreamPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
                                           ServerStreamListener listener) {
        Prepared p;
        long planNanos;
        try {
            Prepared stored = lookup(command.getPreparedStatementHandle());
            p = preparedQuery(command.getPreparedStatementHandle(), context);
            // the statement's planning, once, and binding or planning it again for this run
            planNanos = stored.planNanos().getAndSet(0) + (p == stored ? 0 : p.planNanos().getAndSet(0));
        } catch (RuntimeException e) {
            listener.error(FlightErrors.of(e));
            return;
        }
        stream(p, planNanos, Any.pack(command).toByteArray(), context, listener);
    }

    @Override
    public FlightInfo getFlightInfoStatement(CommandStatementQuery command, CallContext context,
                                             FlightDescriptor descriptor) {
        Prepared query = plan(command.getQuery(), context);
        // The handle is the query behind an id of its own, so cancelling one execution cancels no other.
        String id = UUID.randomUUID().toString();
        planned.put(id, query);
        TicketStatementQuery ticket = TicketStatementQuery.newBuilder()
                .setStatementHandle(ByteString.copyFromUtf8(id + command.getQuery())).build();
        return info(resultSchema(query.query()), ticket, descriptor);
    }

    @Override
    public SchemaResult getSchemaStatement(CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
        return new SchemaResult(resultSchema(plan(command.getQuery(), context).query()));
    }

    @Override
    public void getStreamStatement(TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
        Prepared p;
        try {
            String handle = ticket.getStatementHandle().toStringUtf8();
            // Planned when the client asked for the FlightInfo; a ticket read again is planned anew
            // from the query it carries.
            p = current(planned.asMap().remove(handle.substring(0, UUID_LENGTH)), handle.substring(UUID_LENGTH), context);
        } catch (RuntimeException e) {
            listener.error(FlightErrors.of(e));
            return;
        }
        stream(p, p.planNanos().getAndSet(0), Any.pack(ticket).toByteArray(), context, listener);
    }

    /**
     * Runs {@code p} for the client reading {@code ticket}, as one of the server's queries, whose
     * planning took {@code planNanos}: a query streams its result, a data statement runs and answers
     * with the rows it wrote.
     */
    private void stream(Prepared p, long planNanos, byte[] ticket, CallContext context, ServerStreamListener listener) {
        TrackedQuery tracked = queries.start(user(context), p.query().sql(), planNanos);
        PreparedQuery q = p.query();
        if (q.isUpdate()) {
            // a data statement run as a query (JDBC's PreparedStatement.execute sends an INSERT so)
            // runs here and answers with the rows it wrote, as the embedded API's query() does
            try {
                long rows = runUpdates(List.of(q), context, tracked);
                tracked.wrote(rows);
                q = PreparedQuery.rowsWritten(q.sql(), rows);
            } catch (RuntimeException e) {
                FlightRuntimeException failure = FlightErrors.of(e);
                queries.end(tracked, FlightErrors.status(failure, Context.current().getDeadline()), "none", null,
                        failure.status().description());
                listener.error(failure);
                return;
            }
        }
        streamer.stream(q, tracked, planHash(q), ticket, settings(context), listener);
    }

    private String planHash(PreparedQuery q) {
        return q.plan() == null ? null
                : planHashes.computeIfAbsent(q, k -> String.format("%08x", PlanExplainer.explain(k.plan()).hashCode()));
    }

    /** The name the caller logged in with, or {@code anonymous} where the server asks for none. */
    private static String user(CallContext context) {
        String peer = context.peerIdentity();
        return peer == null || peer.isEmpty() ? "anonymous" : peer;
    }

    @Override
    public void cancelFlightInfo(CancelFlightInfoRequest request, CallContext context,
                                 StreamListener<CancelStatus> listener) {
        boolean running = false;
        for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
            running |= streamer.cancel(endpoint.getTicket().getBytes());
        }
        // Not running yet: it will be cancelled when it starts, so the answer is the same.
        listener.onNext(running ? CancelStatus.CANCELLING : CancelStatus.CANCELLED);
        listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfoCatalogs(CommandGetCatalogs request, CallContext context, FlightDescriptor descriptor) {
        return info(Schemas.GET_CATALOGS_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
        metadata.catalogs(listener);
    }

    @Override
    public FlightInfo getFlightInfoSchemas(CommandGetDbSchemas request, CallContext context, FlightDescriptor descriptor) {
        return info(Schemas.GET_SCHEMAS_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamSchemas(CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
        metadata.schemas(command, listener);
    }

    @Override
    public FlightInfo getFlightInfoTables(CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
        return info(request.getIncludeSchema() ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA,
                request, descriptor);
    }

    @Override
    public void getStreamTables(CommandGetTables command, CallContext context, ServerStreamListener listener) {
        metadata.tables(command, listener);
    }

    @Override
    public FlightInfo getFlightInfoTableTypes(CommandGetTableTypes request, CallContext context,
                                              FlightDescriptor descriptor) {
        return info(Schemas.GET_TABLE_TYPES_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
        metadata.tableTypes(listener);
    }

    @Override
    public FlightInfo getFlightInfoTypeInfo(CommandGetXdbcTypeInfo request, CallContext context,
                                            FlightDescriptor descriptor) {
        return info(Schemas.GET_TYPE_INFO_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamTypeInfo(CommandGetXdbcTypeInfo request, CallContext context, ServerStreamListener listener) {
        types.types(request.hasDataType() ? request.getDataType() : null, listener);
    }

    @Override
    public FlightInfo getFlightInfoPrimaryKeys(CommandGetPrimaryKeys request, CallContext context,
                                               FlightDescriptor descriptor) {
        return info(Schemas.GET_PRIMARY_KEYS_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamPrimaryKeys(CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
        keys.primaryKeys(command.hasDbSchema() ? command.getDbSchema() : null, command.getTable(), listener);
    }

    @Override
    public FlightInfo getFlightInfoImportedKeys(CommandGetImportedKeys request, CallContext context,
                                                FlightDescriptor descriptor) {
        return info(Schemas.GET_IMPORTED_KEYS_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamImportedKeys(CommandGetImportedKeys command, CallContext context, ServerStreamListener listener) {
        keys.importedKeys(command.hasDbSchema() ? command.getDbSchema() : null, command.getTable(), listener);
    }

    @Override
    public FlightInfo getFlightInfoExportedKeys(CommandGetExportedKeys request, CallContext context,
                                                FlightDescriptor descriptor) {
        return info(Schemas.GET_EXPORTED_KEYS_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamExportedKeys(CommandGetExportedKeys command, CallContext context, ServerStreamListener listener) {
        keys.exportedKeys(command.hasDbSchema() ? command.getDbSchema() : null, command.getTable(), listener);
    }

    @Override
    public FlightInfo getFlightInfoSqlInfo(CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
        return info(Schemas.GET_SQL_INFO_SCHEMA, request, descriptor);
    }

    @Override
    public void getStreamSqlInfo(CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
        sqlInfo.send(command.getInfoList(), listener);
    }

    /** The calling session's settings (its SET statements over the server's), else the server's. */
    private Settings settings(CallContext context) {
        ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
        if (sessions == null || !sessions.hasSession()) {
            return db.settings();
        }
        Settings settings = sessionSettings.getIfPresent(sessions.getSession().id);
        return settings == null ? db.settings() : settings;
    }

    /**
     * {@code sql} planned now for the calling session, timed; a statement that fails to plan is
     * counted as a failed query, under an id of its own that the log and an internal error's
     * message name, and answered with its Flight status.
     */
    private Prepared plan(String sql, CallContext context) {
        long start = System.nanoTime();
        long version = db.catalog().version();
        try {
            return new Prepared(db.prepare(sql, settings(context)), version, null, System.nanoTime() - start);
        } catch (RuntimeException e) {
            TrackedQuery failed = queries.start(user(context), sql, System.nanoTime() - start);
            MDC.put("query", failed.id());
            FlightRuntimeException failure;
            try {
                failure = FlightErrors.of(e);
            } finally {
                MDC.remove("query");
            }
            queries.end(failed, QueryStatus.FAILED, "none", null, failure.status().description());
            throw failure;
        }
    }

    /**
     * The prepared statement with its bound parameter values in place (binding plans it), planned
     * again when tables changed since it was planned.
     */
    private Prepared preparedQuery(ByteString handle, CallContext context) {
        Prepared p = lookup(handle);
        if (p.query().needsParameters()) {
            if (p.parameters() == null) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("the statement has " + p.query().parameters().size()
                        + " parameters and no values were bound").toRuntimeException();
            }
            long start = System.nanoTime();
            PreparedQuery bound = bind(p.query(), p.parameters(), context);
            return new Prepared(bound, p.catalogVersion(), p.parameters(), System.nanoTime() - start);
        }
        Prepared current = current(p, p.query().sql(), context);
        if (current != p) {
            prepared.put(handle, current);
        }
        return current;
    }

    /**
     * {@code p} while tables are as they were when it was planned (a data statement plans nothing
     * ahead, so it is always current), else {@code sql} planned now; also when there is no {@code p}.
     */
    private Prepared current(Prepared p, String sql, CallContext context) {
        if (p != null && (p.catalogVersion() == db.catalog().version() || p.query().isUpdate())) {
            return p;
        }
        return plan(sql, context);
    }

    private Prepared lookup(ByteString handle) {
        Prepared p = prepared.get(handle);
        if (p == null) {
            throw CallStatus.NOT_FOUND.withDescription("no prepared statement with this handle (closed or never made)")
                    .toRuntimeException();
        }
        return p;
    }

    private PreparedQuery bind(PreparedQuery query, List<Object> values, CallContext context) {
        try {
            return db.bind(query, values, settings(context));
        } catch (RuntimeException e) {
            throw FlightErrors.of(e);
        }
    }

    /** Keeps the values a client binds to a prepared query's parameters (one row) for its next execution. */
    @Override
    public Runnable acceptPutPreparedStatementQuery(CommandPreparedStatementQuery command, CallContext context,
                                                    FlightStream stream, StreamListener<PutResult> ack) {
        return () -> {
            try {
                Prepared p = lookup(command.getPreparedStatementHandle());
                List<List<Object>> rows = ParameterRows.read(stream);
                if (rows.size() != 1) {
                    throw CallStatus.INVALID_ARGUMENT.withDescription("a query takes one row of parameter values, not "
                            + rows.size()).toRuntimeException();
                }
                prepared.put(command.getPreparedStatementHandle(), p.withParameters(rows.get(0)));
                byte[] result = DoPutPreparedStatementResult.newBuilder()
                        .setPreparedStatementHandle(command.getPreparedStatementHandle()).build().toByteArray();
                try (ArrowBuf buffer = allocator.buffer(result.length)) {
                    buffer.writeBytes(result);
                    ack.onNext(PutResult.metadata(buffer));
                }
                ack.onCompleted();
            } catch (RuntimeException e) {
                ack.onError(FlightErrors.of(e));
            }
        };
    }

    /** Runs a prepared data statement, once per row of parameter values the client sends (once without parameters). */
    @Override
    public Runnable acceptPutPreparedStatementUpdate(CommandPreparedStatementUpdate command, CallContext context,
                                                     FlightStream stream, StreamListener<PutResult> ack) {
        return () -> {
            try {
                Prepared p = lookup(command.getPreparedStatementHandle());
                if (!p.query().needsParameters()) {
                    update(p.query().sql(), p.planNanos().getAndSet(0), List.of(p.query()), context, ack);
                    return;
                }
                List<List<Object>> rows = ParameterRows.read(stream);
                long start = System.nanoTime();
                List<PreparedQuery> statements = new ArrayList<>();
                for (List<Object> row : rows) {
                    statements.add(bind(p.query(), row, context));
                }
                update(p.query().sql(), p.planNanos().getAndSet(0) + System.nanoTime() - start, statements, context, ack);
            } catch (RuntimeException e) {
                ack.onError(FlightErrors.of(e));
            }
        };
    }

    @Override
    public Runnable acceptPutStatement(CommandStatementUpdate command, CallContext context, FlightStream stream,
                                       StreamListener<PutResult> ack) {
        return () -> {
            try {
                Prepared p = plan(command.getQuery(), context);
                update(command.getQuery(), p.planNanos().get(), List.of(p.query()), context, ack);
            } catch (RuntimeException e) {
                ack.onError(FlightErrors.of(e));
            }
        };
    }

    /**
     * Runs data statements in order, as one of the server's queries ({@code sql}, planned in
     * {@code planNanos}), and acknowledges with the rows they wrote together.
     */
    private void update(String sql, long planNanos, List<PreparedQuery> statements, CallContext context,
                        StreamListener<PutResult> ack) {
        written(sql, planNanos, context, ack, tracked -> runUpdates(statements, context, tracked));
    }

    /**
     * Uploads the client's record batches into a table (Flight SQL's bulk ingest: pyarrow/ADBC's
     * {@code adbc_ingest}, {@code executeIngest}), as one data statement of an administrator's:
     * created from the batches' schema, appended to or replaced as the command's table definition
     * options say, all or nothing.
     */
    @Override
    public Runnable acceptPutStatementBulkIngest(CommandStatementIngest command, CallContext context, FlightStream stream,
                                                 StreamListener<PutResult> ack) {
        return () -> {
            Settings session = settings(context);
            // without a schema in the command, the table is the session's (SET schema), as in its statements
            String table = command.hasSchema() && !command.getSchema().isEmpty()
                    ? command.getSchema() + "." + command.getTable()
                    : new SessionNames(db.catalog(), session.schema(), (query, schema) -> query).target(command.getTable());
            String sql = "INGEST INTO " + table;
            try {
                if (command.getTemporary() || command.hasTransactionId()) {
                    throw CallStatus.INVALID_ARGUMENT.withDescription("an ingest into a temporary table or within a "
                            + "transaction: Starling has neither").toRuntimeException();
                }
                privileges.checkAdministers(user(context), "ingest into table " + table);
                Ingest ingest = IngestOptions.of(table, command.getTableDefinitionOptions());
                RecordBatches batches = new RecordBatches() {
                    @Override
                    public VectorSchemaRoot root() {
                        return stream.getRoot();
                    }

                    @Override
                    public boolean next() {
                        return stream.next();
                    }
                };
                // stopped with its call, as a query is: its writing at the next batch, keeping nothing
                written(sql, 0, context, ack, tracked -> {
                    QueryContext ctx = db.newContext(session);
                    try (CallBound call = new CallBound(ctx)) {
                        return db.ingest(ingest, batches, "the upload into " + table, ctx, tracked::wrote);
                    }
                });
            } catch (RuntimeException e) {
                ack.onError(FlightErrors.of(e));
            }
        };
    }

    /**
     * Runs {@code work}, which writes rows, as one of the server's queries ({@code sql}, planned in
     * {@code planNanos}), and acknowledges with the rows it wrote.
     */
    private void written(String sql, long planNanos, CallContext context, StreamListener<PutResult> ack,
                         java.util.function.ToLongFunction<TrackedQuery> work) {
        TrackedQuery tracked = queries.start(user(context), sql, planNanos);
        FlightRuntimeException failure = null;
        try {
            long rows = work.applyAsLong(tracked);
            tracked.wrote(rows);
            byte[] result = DoPutUpdateResult.newBuilder().setRecordCount(rows).build().toByteArray();
            try (ArrowBuf buffer = allocator.buffer(result.length)) {
                buffer.writeBytes(result);
                ack.onNext(PutResult.metadata(buffer));
            }
        } catch (RuntimeException e) {
            failure = FlightErrors.of(e);
        } finally {
            queries.end(tracked, failure == null ? QueryStatus.OK : FlightErrors.status(failure, Context.current().getDeadline()),
                    "none", null, failure == null ? null : failure.status().description());
        }
        if (failure == null) {
            ack.onCompleted();
        } else {
            ack.onError(failure);
        }
    }

    /** The schema of what {@code q} answers as a query: a data statement, the rows it wrote. */
    private static Schema resultSchema(PreparedQuery q) {
        return ResultSchema.of(q.isUpdate() ? PreparedQuery.ROWS_WRITTEN : q.fields());
    }

    /**
     * Runs data statements in order for the calling session, {@code tracked} showing the rows they
     * have written as they go; returns the rows they wrote together.
     */
    private long runUpdates(List<PreparedQuery> statements, CallContext context, TrackedQuery tracked) {
        long rows = 0;
        Settings session = settings(context);
        for (PreparedQuery q : statements) {
            if (!q.isUpdate()) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("not a data statement (a query has results to fetch): "
                        + q.sql()).toRuntimeException();
            }
            privileges.check(user(context), q);
            if (q.update() instanceof DataStatement.GrantRole g) {
                privileges.grant(user(context), g);
                continue;
            }
            long before = rows;
            QueryContext ctx = db.newContext(session);
            Starling.Updated done;
            // stopped with its call, as a query is: its query at its checks, its writing at the next batch
            try (CallBound call = new CallBound(ctx)) {
                done = db.update(q, session, ctx, written -> tracked.wrote(before + written));
            }
            rows += done.rows();
            if (q.isSet()) {
                // the calling session's alone, never the other clients', and kept even when it
                // equals the server's settings of the moment, which it no longer follows
                session = done.settings();
                ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
                sessionSettings.put(sessions.getSession().id, session);
            }
        }
        return rows;
    }

    /** A FlightInfo whose one endpoint's ticket is {@code ticket}, read back on this server. */
    private static FlightInfo info(Schema schema, Message ticket, FlightDescriptor descriptor) {
        return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(new Ticket(Any.pack(ticket).toByteArray()))),
                -1, -1);
    }
}
