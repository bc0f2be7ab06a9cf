package dev.starling.exec.run;

import dev.starling.exec.BatchSink;
import dev.starling.exec.QueryCancelledException;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.pipeline.PipelineRunner;
import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.pipeline.Stream;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs physical plans on the CPU backend, morsel-driven over {@code threads} threads (the caller's
 * and a fixed pool shared by all queries of this executor). The catalog, when given, resolves the
 * tables that dense-coded foreign keys point into, for scans that read such a key's value; without
 * it, such scans fail with a message saying so (CODE and ROW_ID scans need no catalog). The
 * accelerator, when given, runs the pipelines a plan's graph placed on it (see {@link Accelerator}).
 */
public final class Executor implements AutoCloseable {
    private static final AtomicInteger POOLS = new AtomicInteger();
    private final int threads;
    private final Catalog catalog;
    private final ExecutorService pool;
    private final Accelerator accelerator;

    public Executor(int threads) {
        this(threads, null);
    }

    public Executor(int threads, Catalog catalog) {
        this(threads, catalog, null);
    }

    public Executor(int threads, Catalog catalog, Accelerator accelerator) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
        this.catalog = catalog;
        this.accelerator = accelerator;
        this.pool = PipelineRunner.newPool(Math.max(1, threads - 1), "starling-cpu-" + POOLS.incrementAndGet());
    }

    /** Runs a plan on the CPU and keeps its whole result; for tests. */
    public QueryResult collect(PlanNode plan) {
        return collect(PipelineGraph.cpu(plan), new QueryContext());
    }

    /** Runs a plan's pipeline graph and keeps its whole result; for the embedded API and tests. */
    public QueryResult collect(PipelineGraph graph, QueryContext ctx) {
        List<List<Object>> rows = new ArrayList<>();
        run(graph, ctx, new BatchSink() {
            @Override
            public void accept(Batch batch) {
                for (int r = 0; r < batch.rows(); r++) {
                    List<Object> row = new ArrayList<>(batch.width());
                    for (int c = 0; c < batch.width(); c++) {
                        row.add(batch.column(c).value(r));
                    }
                    rows.add(row);
                }
            }
        });
        return new QueryResult(graph.root().output(), rows);
    }

    /** Runs a plan on the CPU, handing result batches to {@code sink} as the last pipeline produces them. */
    public void run(PlanNode plan, QueryContext ctx, BatchSink sink) {
        run(PipelineGraph.cpu(plan), ctx, sink);
    }

    /**
     * Runs a plan's pipeline graph, each pipeline where the graph placed it, handing result batches
     * to {@code sink} as the last pipeline produces them. Throws {@link QueryCancelledException}
     * once {@code ctx} is cancelled.
     */
    public void run(PipelineGraph graph, QueryContext ctx, BatchSink sink) {
        PipelineRunner runner = new PipelineRunner(pool, threads);
        Stream stream = new PlanCompiler(runner, catalog, ctx, accelerator, graph).compile();
        sink.start(graph.root().output());
        long start = System.nanoTime();
        CountedSink<BatchSink> counted = new CountedSink<>(new Sink<BatchSink>() {
            @Override
            public BatchSink createLocal() {
                return sink;
            }

            @Override
            public void accept(BatchSink local, Batch batch) {
                if (sink.concurrent()) {
                    ctx.checkCancelled();
                    sink.accept(batch);
                    return;
                }
                synchronized (sink) {
                    ctx.checkCancelled();
                    sink.accept(batch);
                }
            }

            @Override
            public void finish(List<BatchSink> locals) {
                sink.finish();
            }

            @Override
            public boolean waitsOnConsumer() {
                return true;
            }
        });
        runner.run(stream, counted, ctx);
        ctx.profile().measured(graph.pipeline(graph.root(), PipelineGraph.Role.RESULT).id(), System.nanoTime() - start,
                counted.rows());
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
