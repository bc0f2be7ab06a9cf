package dev.starling.server.flight;

import dev.starling.engine.PreparedQuery;
import dev.starling.engine.Starling;
import dev.starling.exec.ArrowBatches;
import dev.starling.exec.BatchSink;
import dev.starling.exec.QueryContext;
import dev.starling.exec.vector.Batch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Streams a query's result to a Flight client batch by batch while the query runs: nothing is held
 * whole, a batch waits until the client's stream is ready for more (so a slow reader slows the
 * query instead of filling memory), and a client that cancels cancels the query's work.
 */
final class ResultStreamer {
    private final Starling db;
    private final BufferAllocator allocator;
    private final AtomicInteger running = new AtomicInteger();

    ResultStreamer(Starling db, BufferAllocator allocator) {
        this.db = db;
        this.allocator = allocator;
    }

    /** Queries streaming now. */
    int running() {
        return running.get();
    }

    void stream(PreparedQuery query, ServerStreamListener listener) {
        QueryContext ctx = db.newContext();
        listener.setOnCancelHandler(ctx::cancel);
        running.incrementAndGet();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowBatches.schema(query.fields()), allocator)) {
            listener.start(root);
            db.execute(query, ctx, new BatchSink() {
                @Override
                public void accept(Batch batch) {
                    awaitReady(listener, ctx);
                    ArrowBatches.fill(root, query.fields(), batch);
                    listener.putNext();
                }
            });
            listener.completed();
        } catch (RuntimeException | OutOfMemoryError e) {
            listener.error(FlightErrors.of(e));
        } finally {
            running.decrementAndGet();
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
