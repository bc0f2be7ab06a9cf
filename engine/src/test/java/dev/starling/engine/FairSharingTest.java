package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.BatchSink;
import dev.starling.exec.QueryCancelledException;
import dev.starling.exec.QueryContext;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.gen.TpchGenerator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Queries share the CPU workers: small queries answer while a query of minutes holds every
 * worker, instead of waiting for it to end, and cancelling it leaves the workers idle.
 */
class FairSharingTest {

    @Test
    void smallQueriesAnswerWhileAHeavyOneRuns() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try (Starling db = Starling.inMemory()) {
            // lineitem in five chunks: morsels for a pool worker in both queries
            TpchGenerator.generate(db.catalog(), 0.05, "");
            String small = "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_discount > 0.05";
            List<List<Object>> expected = db.query(small).rows();
            QueryContext heavy = db.newContext();
            CompletableFuture<Boolean> started = new CompletableFuture<>();
            Future<?> running = clients.submit(() -> db.execute(db.prepare(
                    "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_linenumber = b.l_linenumber"), heavy,
                    new BatchSink() {
                        @Override
                        public void accept(Batch batch) {
                        }
                    }));
            clients.submit(() -> {
                while (!running.isDone() && heavy.chunksScanned() == 0) {
                    Thread.onSpinWait();
                }
                started.complete(true);
            });
            started.get(60, TimeUnit.SECONDS);
            // a bound far above the work (about a millisecond a query) that a wait for the heavy one would pass
            Future<Integer> answered = clients.submit(() -> {
                for (int i = 0; i < 100; i++) {
                    assertEquals(expected, db.query(small).rows());
                }
                return 100;
            });
            assertEquals(100, answered.get(120, TimeUnit.SECONDS));
            assertFalse(running.isDone(), "the heavy query ended before the small ones: it did not run meanwhile");
            heavy.cancel();
            Exception stopped = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                    () -> running.get(10, TimeUnit.SECONDS));
            assertInstanceOf(QueryCancelledException.class, stopped.getCause());
            assertTrue(workersIdle(), "worker threads still busy after the cancel");
        } finally {
            clients.shutdownNow();
        }
    }

    /** Whether the CPU backend's pool threads use no CPU time over a tenth of a second. */
    private static boolean workersIdle() throws InterruptedException {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long before = poolCpuNanos(threads);
        Thread.sleep(100);
        return poolCpuNanos(threads) - before < 5_000_000;
    }

    private static long poolCpuNanos(java.lang.management.ThreadMXBean threads) {
        long sum = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("starling-cpu-")) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }
}
