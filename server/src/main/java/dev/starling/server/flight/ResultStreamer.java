package dev.starling.server.flight;

import dev.starling.engine.PreparedQuery;
import dev.starling.engine.Starling;
import dev.starling.exec.ArrowBatches;
import dev.starling.exec.BatchSink;
import dev.starling.exec.QueryContext;
import dev.starling.exec.Settings;
import dev.starling.exec.vector.Batch;
import dev.starling.server.queries.QueryStatus;
import dev.starling.server.queries.QueryTracker;
import dev.starling.server.queries.TrackedQuery;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.slf4j.MDC;

/**
 * Streams a query's result to a Flight client batch by batch while the query runs: nothing is held
 * whole, a batch waits until the client's stream is ready for more (so a slow reader slows the
 * query instead of filling memory), and a client that goes away, or cancels the FlightInfo,
 * cancels the query's work. The query's time limit is its session's {@code query_timeout} or the
 * client's deadline for the call, whichever ends first.
 * <p>
 * A client's going away reaches the query through the gRPC context of the call, whose
 * cancellation listeners run as soon as the transport learns of it (a cancel, a passed deadline, a
 * lost connection): Flight's own cancel handler only runs once this method has returned, too late
 * for a query that has not sent its first batch.
 */
final class ResultStreamer {
    private final Starling db;
    private final BufferAllocator allocator;
    private final QueryTracker queries;
    private final Map<ByteBuffer, List<QueryContext>> byTicket = new ConcurrentHashMap<>();
    private final Set<ByteBuffer> cancelledBeforeStart = ConcurrentHashMap.newKeySet();
    /**
     * Result batches are gathered into Arrow record batches of about this many rows: a message per
     * 4096-row batch spent more on framing than on data.
     */
    private static final int MESSAGE_ROWS = 32 * 1024;

    ResultStreamer(Starling db, BufferAllocator allocator, QueryTracker queries) {
        this.db = db;
        this.allocator = allocator;
        this.queries = queries;
    }

    /**
     * Cancels the query streaming for {@code ticket}, or the next one to start for it (a client may
     * cancel between asking for the FlightInfo and reading it); returns whether one was running.
     */
    boolean cancel(byte[] ticket) {
        ByteBuffer key = ByteBuffer.wrap(ticket);
        List<QueryContext> contexts = byTicket.get(key);
        if (contexts != null && !contexts.isEmpty()) {
            contexts.forEach(QueryContext::cancel);
            return true;
        }
        cancelledBeforeStart.add(key);
        return false;
    }

    /**
     * Streams {@code query} for {@code ticket} (the bytes of the ticket the client reads) on the
     * session's backend, as the run {@code tracked} of the server's queries (of the plan whose hash
     * is {@code planHash}), which it ends.
     */
    void stream(PreparedQuery query, TrackedQuery tracked, String planHash, byte[] ticket, Settings settings,
                ServerStreamListener listener) {
        QueryContext ctx = db.newContext(settings);
        ByteBuffer key = ByteBuffer.wrap(ticket);
        if (cancelledBeforeStart.remove(key)) {
            ctx.cancel();
        }
        CallBound call = new CallBound(ctx);
        byTicket.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(ctx);
        MDC.put("query", tracked.id());
        FlightRuntimeException failure = null;
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ResultSchema.of(query.fields()), allocator)) {
            listener.start(root);
            ctx.checkCancelled();
            Messages messages = new Messages(query, root, listener, ctx, tracked);
            db.execute(query, ctx, messages);
            messages.flush();
        } catch (Throwable e) {
            // an Error too (a stack overflow in a deeply nested expression): the client hears of it
            failure = FlightErrors.of(e);
        } finally {
            call.close();
            MDC.remove("query");
            byTicket.computeIfPresent(key, (k, list) -> {
                list.remove(ctx);
                return list.isEmpty() ? null : list;
            });
            queries.end(tracked, failure == null ? QueryStatus.OK : FlightErrors.status(failure, call.deadline()), backend(ctx), planHash,
                    failure == null ? null : failure.status().description());
        }
        // answered once the query is over and counted, so a client that hears of its end finds it ended
        if (failure == null) {
            listener.completed();
        } else {
            listener.error(failure);
        }
    }

    /**
     * Where the query's pipelines ran: cpu (also a pipeline the GPU handed back), gpu, gpu+cpu, or
     * none when it ran none.
     */
    private static String backend(QueryContext ctx) {
        boolean gpu = false;
        boolean cpu = false;
        for (String device : ctx.ranOn().values()) {
            gpu |= device.contains("gpu");
            cpu |= device.contains("cpu");
        }
        return gpu && cpu ? "gpu+cpu" : gpu ? "gpu" : cpu ? "cpu" : "none";
    }

    /**
     * The result's batches gathered into messages of about {@link #MESSAGE_ROWS} rows, each
     * converted to an Arrow record batch by the worker that completes it, while others convert
     * theirs (a large result's conversion, string by string, took more time than its scan), and
     * sent one at a time once the client's stream can take it. An ordered result has one worker,
     * so its messages go out in order.
     */
    private final class Messages implements BatchSink {
        private final PreparedQuery query;
        private final VectorSchemaRoot root;
        private final VectorLoader loader;
        private final ServerStreamListener listener;
        private final QueryContext ctx;
        private final TrackedQuery tracked;
        private List<Batch> pending = new ArrayList<>();
        private int pendingRows;

        Messages(PreparedQuery query, VectorSchemaRoot root, ServerStreamListener listener, QueryContext ctx,
                 TrackedQuery tracked) {
            this.query = query;
            this.root = root;
            this.loader = new VectorLoader(root);
            this.listener = listener;
            this.ctx = ctx;
            this.tracked = tracked;
        }

        @Override
        public boolean concurrent() {
            return true;
        }

        @Override
        public void accept(Batch batch) {
            List<Batch> full = null;
            synchronized (this) {
                pending.add(batch);
                pendingRows += batch.rows();
                if (pendingRows >= MESSAGE_ROWS) {
                    full = pending;
                    pending = new ArrayList<>();
                    pendingRows = 0;
                }
            }
            if (full != null) {
                send(full);
            }
        }

        /** Sends what is left once the query has produced every batch. */
        void flush() {
            if (!pending.isEmpty()) {
                send(pending);
            }
        }

        private void send(List<Batch> batches) {
            try (VectorSchemaRoot converted = VectorSchemaRoot.create(root.getSchema(), allocator)) {
                ArrowBatches.fill(converted, query.fields(), batches);
                try (ArrowRecordBatch message = new VectorUnloader(converted).getRecordBatch()) {
                    synchronized (root) {
                        awaitReady(listener, ctx);
                        loader.load(message);
                        listener.putNext();
                        tracked.sent(root.getRowCount(), message.computeBodyLength());
                    }
                }
            }
        }
    }

    private static void awaitReady(ServerStreamListener listener, QueryContext ctx) {
        while (!listener.isReady() && !listener.isCancelled()) {
            LockSupport.parkNanos(50_000);
        }
        if (listener.isCancelled()) {
            ctx.cancel();
        }
        ctx.checkCancelled();
    }
}
