package dev.starling.exec.pipeline;

import dev.starling.exec.QueryContext;
import dev.starling.exec.vector.Batch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one pipeline morsel-driven: workers claim morsels from a shared counter, push each batch
 * through their own operator instances into their own sink state, and the sink merges the states
 * when all morsels are done. The calling thread works too, so a query uses {@code threads} threads:
 * itself and {@code threads - 1} from the shared pool. Pool threads never wait on other pool tasks,
 * so concurrent queries cannot deadlock the pool.
 */
public final class PipelineRunner {
    private final ExecutorService pool;
    private final int threads;

    public PipelineRunner(ExecutorService pool, int threads) {
        this.pool = pool;
        this.threads = threads;
    }

    public <L> void run(Stream stream, Sink<L> sink, QueryContext ctx) {
        List<Part> parts = stream.parts();
        List<int[]> tasks = new ArrayList<>();
        for (int p = 0; p < parts.size(); p++) {
            int morsels = parts.get(p).source().morsels();
            for (int m = 0; m < morsels; m++) {
                tasks.add(new int[] {p, m});
            }
        }
        int workers = stream.ordered() ? 1 : Math.max(1, Math.min(threads, tasks.size()));
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<L> locals = Collections.synchronizedList(new ArrayList<>());
        Runnable worker = () -> {
            try {
                work(parts, tasks, next, failure, sink, locals, ctx);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 1; w < workers; w++) {
            futures.add(pool.submit(worker));
        }
        worker.run();
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ctx.cancel();
                throw new IllegalStateException("interrupted while waiting for query workers", e);
            } catch (ExecutionException e) {
                failure.compareAndSet(null, e.getCause());
            }
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
        ctx.checkCancelled();
        sink.finish(locals);
    }

    private static <L> void work(List<Part> parts, List<int[]> tasks, AtomicInteger next,
                                 AtomicReference<Throwable> failure, Sink<L> sink, List<L> locals, QueryContext ctx) {
        L local = sink.createLocal();
        locals.add(local);
        Source.Reader[] readers = new Source.Reader[parts.size()];
        Operator[][] chains = new Operator[parts.size()][];
        boolean[] finished = new boolean[parts.size()];
        while (failure.get() == null) {
            int t = next.getAndIncrement();
            if (t >= tasks.size()) {
                return;
            }
            ctx.checkCancelled();
            int p = tasks.get(t)[0];
            if (finished[p]) {
                continue;
            }
            if (readers[p] == null) {
                readers[p] = parts.get(p).source().reader();
                chains[p] = parts.get(p).chain().stream().map(OperatorFactory::create).toArray(Operator[]::new);
            }
            Operator[] chain = chains[p];
            readers[p].read(tasks.get(t)[1], batch -> push(batch, chain, 0, sink, local, ctx));
            for (Operator op : chain) {
                finished[p] |= op.finished();
            }
        }
    }

    /** Runs {@code batch} through operators {@code from}.. of the chain into the sink. */
    private static <L> void push(Batch batch, Operator[] chain, int from, Sink<L> sink, L local, QueryContext ctx) {
        if (batch == null || batch.rows() == 0) {
            return;
        }
        ctx.checkCancelled();
        if (from == chain.length) {
            sink.accept(local, batch);
            return;
        }
        chain[from].process(batch, out -> push(out, chain, from + 1, sink, local, ctx));
    }
}
