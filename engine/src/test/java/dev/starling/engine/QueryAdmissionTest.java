package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryCancelledException;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryTimeoutException;
import dev.starling.exec.Settings;
import dev.starling.storage.gen.TpchGenerator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Queries past the number that may run, or past the state memory, wait their turn in the order
 * they came instead of failing; a query waiting stops with its cancellation or its time limit; one
 * whose estimate alone is past the memory runs once nothing else does.
 */
class QueryAdmissionTest {
    /** Threads of the test's own: the common pool may have a single one, which a waiting query would hold. */
    private final java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();

    @org.junit.jupiter.api.AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static void awaitWaiting(QueryAdmission admission, int n) throws InterruptedException {
        for (int i = 0; i < 500 && admission.waiting() != n; i++) {
            Thread.sleep(10);
        }
        assertEquals(n, admission.waiting());
    }

    @Test
    void queriesPastTheLimitWaitTheirTurnInOrder() throws Exception {
        QueryAdmission admission = new QueryAdmission(1, 1 << 20);
        QueryAdmission.Admitted first = admission.admit(new QueryContext(), 10);
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
            try (QueryAdmission.Admitted a = admission.admit(new QueryContext(), 10)) {
                order.add("second");
            }
        }, threads);
        awaitWaiting(admission, 1);
        CompletableFuture<Void> third = CompletableFuture.runAsync(() -> {
            try (QueryAdmission.Admitted a = admission.admit(new QueryContext(), 10)) {
                order.add("third");
            }
        }, threads);
        awaitWaiting(admission, 2);
        assertFalse(second.isDone(), "one query may run, and one does");
        first.close();
        second.get(10, TimeUnit.SECONDS);
        third.get(10, TimeUnit.SECONDS);
        assertEquals(List.of("second", "third"), List.copyOf(order));
        assertEquals(0, admission.running());
    }

    @Test
    void aWaitingQueryStopsWithItsCancellationOrItsTimeLimit() throws Exception {
        QueryAdmission admission = new QueryAdmission(1, 1 << 20);
        try (QueryAdmission.Admitted running = admission.admit(new QueryContext(), 10)) {
            QueryContext cancelled = new QueryContext();
            CompletableFuture<Void> waits = CompletableFuture.runAsync(() -> admission.admit(cancelled, 10).close(), threads);
            awaitWaiting(admission, 1);
            cancelled.cancel();
            Exception e = assertThrows(Exception.class, () -> waits.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof QueryCancelledException, String.valueOf(e.getCause()));
            QueryContext limited = new QueryContext(Settings.DEFAULT.with("query_timeout", "100ms"));
            assertThrows(QueryTimeoutException.class, () -> admission.admit(limited, 10));
            assertEquals(0, admission.waiting(), "a query that stopped waiting left the line");
        }
    }

    @Test
    void stateMemoryIsSharedAndAQueryPastItRunsAlone() throws Exception {
        QueryAdmission admission = new QueryAdmission(8, 100);
        QueryAdmission.Admitted big = admission.admit(new QueryContext(), 80);
        CompletableFuture<Void> more = CompletableFuture.runAsync(() -> admission.admit(new QueryContext(), 50).close(), threads);
        awaitWaiting(admission, 1);
        big.close();
        more.get(10, TimeUnit.SECONDS);
        try (QueryAdmission.Admitted huge = admission.admit(new QueryContext(), 500)) {
            assertEquals(1, admission.running(), "past the budget alone, it runs once nothing else does");
        }
    }

    @Test
    void theEngineQueuesQueriesPastItsLimit() throws Exception {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            db.setAdmission(1, 1L << 30);
            QueryContext heavy = db.newContext();
            CompletableFuture<Void> cross = CompletableFuture.runAsync(() -> db.execute(
                    db.prepare("SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_suppkey = b.l_suppkey "
                            + "WHERE a.l_quantity + b.l_quantity > 1000"),
                    heavy, batch -> { }), threads);
            for (int i = 0; i < 500 && db.queriesRunning() == 0; i++) {
                Thread.sleep(10);
            }
            CompletableFuture<List<List<Object>>> light = CompletableFuture.supplyAsync(
                    () -> db.query("SELECT sum(n_regionkey) FROM nation").rows(), threads);
            for (int i = 0; i < 500 && db.queriesWaiting() == 0; i++) {
                Thread.sleep(10);
            }
            assertEquals(1, db.queriesWaiting(), "the light query waits behind the heavy one");
            heavy.cancel();
            assertEquals(List.of(List.of(50L)), light.get(30, TimeUnit.SECONDS));
            assertThrows(Exception.class, () -> cross.get(30, TimeUnit.SECONDS));
        }
    }
}
