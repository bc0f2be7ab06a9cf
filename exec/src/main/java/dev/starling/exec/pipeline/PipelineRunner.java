package dev.starling.exec.pipeline;

import dev.starling.exec.QueryContext;
import dev.starling.exec.vector.Batch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one pipeline morsel-driven: workers claim morsels from a shared counter, push each batch
 * through their own operator instances into their own sink state, and the sink merges the states
 * when all morsels are done. The calling thread works too, so a query uses {@code threads} threads:
 * itself and {@code threads - 1} from the pool that all queries share.
 * <p>
 * The pool is shared fairly: a pool worker works for one {@link #SLICE_NANOS time slice} (at
 * least a morsel), then goes back to the pool's queue with its state, which serves first the
 * workers of the query that has had the least worker time so far (least attained service), so a
 * short query that arrives while a long one holds every thread takes the next threads that come
 * free instead of queueing behind the long one's slices (morsel-driven scheduling, Leis et al.,
 * <i>Morsel-Driven Parallelism</i>, SIGMOD 2014, section 3.3). Once the morsels are all claimed, a
 * worker still waiting in the queue is withdrawn rather than waited for, so a query never waits
 * behind another's slices for a worker with nothing left to do. A morsel may outlast many slices
 * (a join that pairs each row with hundreds of others), so between the batches of a morsel a
 * pool worker whose slice has passed runs the first queued worker of a less-served query on its
 * own thread for that worker's slice, then goes on: a short query waits for a thread at most a slice,
 * not a long query's morsel. Pool threads never wait on other pool tasks, so concurrent queries
 * cannot deadlock the pool. The pool's queue must order {@link Comparable} tasks ({@link #newPool}).
 */
public final class PipelineRunner {
    /** How long a pool worker works before it lets the queued workers of other queries run. */
    static final long SLICE_NANOS = 2_000_000;

    private final ExecutorService pool;
    private final int threads;

    public PipelineRunner(ExecutorService pool, int threads) {
        this.pool = pool;
        this.threads = threads;
    }

    /** A pool of {@code threads} daemon threads named {@code name-n} whose queue serves the least-served query first. */
    public static ExecutorService newPool(int threads, String name) {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
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
        Run<L> run = new Run<>(parts, tasks, sink, ctx);
        int workers = stream.ordered() ? 1 : Math.max(1, Math.min(threads, tasks.size()));
        List<Worker<L>> pooled = new ArrayList<>();
        for (int w = 1; w < workers; w++) {
            Worker<L> worker = new Worker<>(run, pool);
            pooled.add(worker);
            worker.enqueue();
        }
        new Worker<>(run, null).work(Long.MAX_VALUE);
        for (Worker<L> worker : pooled) {
            worker.withdraw();
        }
        run.awaitWorkers(pooled);
        Throwable t = run.failure.get();
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
        sink.finish(run.locals);
        // the merged result is counted before the workers' states are let go: both are alive while it is made
        ctx.hold(sink.heldWhenFinished());
        ctx.hold(-run.held.get());
    }

    /** One pipeline run: its morsels, the next to claim, the workers' sink states and the first failure. */
    private static final class Run<L> {
        final List<Part> parts;
        final List<int[]> tasks;
        final Sink<L> sink;
        final QueryContext ctx;
        final AtomicInteger next = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<L> locals = Collections.synchronizedList(new ArrayList<>());
        /** The memory the workers' states hold together, as counted to the query. */
        final AtomicLong held = new AtomicLong();

        Run(List<Part> parts, List<int[]> tasks, Sink<L> sink, QueryContext ctx) {
            this.parts = parts;
            this.tasks = tasks;
            this.sink = sink;
            this.ctx = ctx;
        }

        boolean exhausted() {
            return failure.get() != null || next.get() >= tasks.size();
        }

        synchronized void workerDone() {
            notifyAll();
        }

        synchronized void awaitWorkers(List<Worker<L>> workers) {
            boolean interrupted = false;
            while (workers.stream().anyMatch(w -> !w.done())) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    // the workers stop at their next check; their state must not be merged while they run
                    interrupted = true;
                    ctx.cancel();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * One worker: its readers, operator chains and sink state, kept across its time slices. A
     * pool worker is queued, running or done; only the one that moves it out of queued runs it.
     */
    private static final class Worker<L> implements Runnable, Comparable<Worker<?>> {
        private static final AtomicLong ENQUEUED = new AtomicLong();
        private static final int QUEUED = 0;
        private static final int RUNNING = 1;
        private static final int DONE = 2;
        /** Whether this thread is running a worker of another query in the middle of a morsel of its own. */
        private static final ThreadLocal<Boolean> LENT = ThreadLocal.withInitial(() -> false);

        private final Run<L> run;
        private final ExecutorService pool;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private final Source.Reader[] readers;
        private final Operator[][] chains;
        private final boolean[] finished;
        private L local;
        /** The memory {@link #local} holds, as last counted to the query. */
        private long held;
        /** The query's worker time when this was queued, then the order of queueing: its place in the pool's queue. */
        private long servedNanos;
        private long sequence;
        /** When this worker's slice ends and it may next run another query's worker ({@link #lendIfDue}). */
        private long lendAt;
        /** Time of the current slice spent running other queries' workers, which is not this query's service. */
        private long lentNanos;

        Worker(Run<L> run, ExecutorService pool) {
            this.run = run;
            this.pool = pool;
            this.readers = new Source.Reader[run.parts.size()];
            this.chains = new Operator[run.parts.size()][];
            this.finished = new boolean[run.parts.size()];
        }

        void enqueue() {
            servedNanos = run.ctx.workerNanos();
            sequence = ENQUEUED.getAndIncrement();
            try {
                pool.execute(this);
            } catch (RejectedExecutionException e) {
                // a pool that is shutting down: the calling thread does the work
                finish();
            }
        }

        @Override
        public void run() {
            if (!state.compareAndSet(QUEUED, RUNNING)) {
                return;
            }
            work(SLICE_NANOS);
            if (run.exhausted()) {
                finish();
                return;
            }
            state.set(QUEUED);
            // the morsels may have run out meanwhile, after the caller withdrew the workers it found queued
            if (run.exhausted()) {
                withdraw();
            } else {
                enqueue();
            }
        }

        @Override
        public int compareTo(Worker<?> other) {
            int served = Long.compare(servedNanos, other.servedNanos);
            return served != 0 ? served : Long.compare(sequence, other.sequence);
        }

        /** Takes a worker still waiting in the queue out of the run: the morsels are all claimed. */
        void withdraw() {
            if (state.compareAndSet(QUEUED, DONE)) {
                run.workerDone();
            }
        }

        boolean done() {
            return state.get() == DONE;
        }

        private void finish() {
            state.set(DONE);
            run.workerDone();
        }

        /**
         * Claims and runs morsels until none is left or it has worked {@code slice} nanoseconds,
         * and counts the time to the query's service.
         */
        void work(long slice) {
            long start = System.nanoTime();
            lendAt = start + SLICE_NANOS;
            lentNanos = 0;
            try {
                if (local == null) {
                    local = run.sink.createLocal();
                    run.locals.add(local);
                }
                while (!run.exhausted() && System.nanoTime() - start < slice) {
                    int t = run.next.getAndIncrement();
                    if (t >= run.tasks.size()) {
                        return;
                    }
                    run.ctx.checkCancelled();
                    morsel(run.tasks.get(t)[0], run.tasks.get(t)[1]);
                }
            } catch (Throwable e) {
                run.failure.compareAndSet(null, e);
            } finally {
                run.ctx.addWorkerNanos(System.nanoTime() - start - lentNanos);
            }
        }

        /**
         * Once this worker's slice has passed, runs the pool's first queued worker on this thread
         * for one slice (at least one of its morsels), if it belongs to a query served less than
         * this one and its sink waits on nothing outside its query (a result's client), and sets
         * the next time to look. Only pool workers lend (a query's calling thread may hold what
         * another query's work would wait for, such as the GPU), and a thread lent this way lends
         * no further.
         */
        private void lendIfDue() {
            long now = System.nanoTime();
            if (now < lendAt || LENT.get() || !(pool instanceof ThreadPoolExecutor executor)) {
                return;
            }
            lendAt = now + SLICE_NANOS;
            if (!(executor.getQueue().peek() instanceof Worker<?> waiting) || waiting.run == run
                    || waiting.run.sink.waitsOnConsumer() || waiting.servedNanos >= run.ctx.workerNanos()
                    || !executor.remove(waiting)) {
                return;
            }
            LENT.set(true);
            try {
                waiting.run();
            } finally {
                LENT.set(false);
                long end = System.nanoTime();
                lentNanos += end - now;
                lendAt = end + SLICE_NANOS;
            }
        }

        private void morsel(int p, int m) {
            if (finished[p]) {
                return;
            }
            if (readers[p] == null) {
                readers[p] = run.parts.get(p).source().reader();
                chains[p] = run.parts.get(p).chain().stream().map(OperatorFactory::create).toArray(Operator[]::new);
            }
            Operator[] chain = chains[p];
            readers[p].read(m, batch -> push(batch, chain, 0));
            for (Operator op : chain) {
                finished[p] |= op.finished();
            }
        }

        /** Runs {@code batch} through operators {@code from}.. of the chain into the sink. */
        private void push(Batch batch, Operator[] chain, int from) {
            if (batch == null || batch.rows() == 0) {
                return;
            }
            run.ctx.checkCancelled();
            lendIfDue();
            if (from == chain.length) {
                run.sink.accept(local, batch);
                long now = run.sink.held(local);
                if (now != held) {
                    long more = now - held;
                    held = now;
                    run.held.addAndGet(more);
                    run.ctx.hold(more);
                }
                return;
            }
            chain[from].process(batch, out -> push(out, chain, from + 1));
        }
    }
}
