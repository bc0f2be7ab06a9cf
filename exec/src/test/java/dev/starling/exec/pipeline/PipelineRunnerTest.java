package dev.starling.exec.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryContext;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class PipelineRunnerTest {
    private static final Batch ROW = new Batch(new Vector[] {Vector.ofLongs(DataType.BIGINT, new long[] {1}, null)}, 1);

    /**
     * A pool of one thread, held by one morsel of a long query that emits batch after batch until
     * a short query is done: the short query's queued worker runs on the pool's thread between
     * those batches, instead of waiting for the morsel to end (which, without the short query
     * ending first, it never would but for the morsel's cap).
     */
    @Test
    void aShortQuerysWorkerRunsBetweenTheBatchesOfALongQuerysMorsel() throws Exception {
        ExecutorService pool = PipelineRunner.newPool(1, "runner-test");
        ExecutorService callers = Executors.newFixedThreadPool(1);
        try {
            PipelineRunner runner = new PipelineRunner(pool, 2);
            AtomicBoolean shortDone = new AtomicBoolean();
            CountDownLatch longOnPool = new CountDownLatch(1);
            AtomicLong longBatches = new AtomicLong();
            // the long query's two morsels: the caller's waits for the pool's thread to take the
            // other, which emits until the short query is done
            Source endless = source(2, (m, out) -> {
                if (!Thread.currentThread().getName().startsWith("runner-test")) {
                    await(longOnPool);
                    out.accept(ROW);
                    return;
                }
                longOnPool.countDown();
                for (int b = 0; b < 200_000 && !shortDone.get(); b++) {
                    spin(100_000);
                    out.accept(ROW);
                }
            });
            CompletableFuture<Void> longRun = CompletableFuture.runAsync(
                    () -> runner.run(Stream.of(endless, List.of(), false), counting(longBatches), new QueryContext()), callers);
            assertTrue(longOnPool.await(30, TimeUnit.SECONDS), "the long query never reached the pool's thread");

            AtomicInteger onPoolThread = new AtomicInteger();
            AtomicLong shortRows = new AtomicLong();
            Source slow = source(40, (m, out) -> {
                if (Thread.currentThread().getName().startsWith("runner-test")) {
                    onPoolThread.incrementAndGet();
                }
                spin(3_000_000);
                out.accept(ROW);
            });
            runner.run(Stream.of(slow, List.of(), false), counting(shortRows), new QueryContext());
            shortDone.set(true);
            longRun.get(60, TimeUnit.SECONDS);

            assertEquals(40, shortRows.get());
            assertTrue(onPoolThread.get() > 0, "the short query's worker waited for the long query's morsel");
        } finally {
            callers.shutdownNow();
            pool.shutdownNow();
        }
    }

    private interface MorselBody {
        void read(int morsel, Consumer<Batch> out);
    }

    private static Source source(int morsels, MorselBody body) {
        return new Source() {
            @Override
            public int morsels() {
                return morsels;
            }

            @Override
            public Reader reader() {
                return body::read;
            }
        };
    }

    private static Sink<long[]> counting(AtomicLong rows) {
        return new Sink<>() {
            @Override
            public long[] createLocal() {
                return new long[1];
            }

            @Override
            public void accept(long[] local, Batch batch) {
                local[0] += batch.rows();
            }

            @Override
            public void finish(List<long[]> locals) {
                rows.set(locals.stream().mapToLong(l -> l[0]).sum());
            }
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
