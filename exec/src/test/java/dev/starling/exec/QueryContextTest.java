package dev.starling.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class QueryContextTest {
    private static final Settings AN_HOUR = Settings.DEFAULT.with("query_timeout", "1h");

    @Test
    void noLimitByDefault() {
        QueryContext ctx = new QueryContext(Settings.DEFAULT);
        assertFalse(ctx.isCancelled());
        ctx.cancel();
        QueryCancelledException e = assertThrows(QueryCancelledException.class, ctx::checkCancelled);
        assertEquals("query cancelled", e.getMessage());
    }

    @Test
    void aLimitThatHasPassedStopsTheQueryAtTheNextCheck() {
        QueryContext ctx = new QueryContext(AN_HOUR);
        ctx.checkCancelled();
        ctx.limitTo(Duration.ZERO);
        assertTrue(ctx.isCancelled());
        QueryCancelledException e = assertThrows(QueryCancelledException.class, ctx::checkCancelled);
        assertInstanceOf(QueryTimeoutException.class, e);
        assertTrue(e.getMessage().startsWith("the query ran past its time limit of "), e.getMessage());
    }

    @Test
    void aLaterDeadlineLeavesAnEarlierLimit() {
        QueryContext ctx = new QueryContext(Settings.DEFAULT.with("query_timeout", "0.1"));
        ctx.limitTo(Duration.ofHours(1));
        long start = System.nanoTime();
        while (!ctx.isCancelled() && System.nanoTime() - start < 10_000_000_000L) {
            Thread.onSpinWait();
        }
        QueryTimeoutException e = assertThrows(QueryTimeoutException.class, ctx::checkCancelled);
        assertTrue(e.getMessage().contains("time limit of 100 ms"), e.getMessage());
    }

    @Test
    void theFirstReasonToStopIsTheOneReported() {
        QueryContext timedOut = new QueryContext(AN_HOUR);
        timedOut.limitTo(Duration.ZERO);
        assertTrue(timedOut.isCancelled());
        timedOut.cancel();
        assertThrows(QueryTimeoutException.class, timedOut::checkCancelled);

        QueryContext cancelled = new QueryContext(AN_HOUR);
        cancelled.cancel();
        cancelled.limitTo(Duration.ZERO);
        QueryCancelledException e = assertThrows(QueryCancelledException.class, cancelled::checkCancelled);
        assertFalse(e instanceof QueryTimeoutException);
    }

    @Test
    void memoryHeldPastTheLimitStopsTheQueryAndEveryWorkerSeesIt() {
        QueryContext ctx = new QueryContext(Settings.DEFAULT.with("memory_limit", "1 KiB"));
        ctx.hold(1000);
        ctx.hold(-500);
        ctx.hold(524);
        assertFalse(ctx.isCancelled(), "1,024 bytes are within the limit");
        QueryMemoryLimitException e = assertThrows(QueryMemoryLimitException.class, () -> ctx.hold(1));
        assertEquals("the query needed more than its memory limit of 1.02 KB for its join tables, groups and buffered "
                + "rows (1.03 KB when it was stopped); SET memory_limit changes the session's limit", e.getMessage());
        assertTrue(ctx.isCancelled());
        assertThrows(QueryMemoryLimitException.class, ctx::checkCancelled);
        assertEquals(1025, ctx.peakBytes());
    }

    @Test
    void sizesReadAndShowAsPeopleWriteThem() {
        assertEquals(1_500_000_000L, Settings.size("memory_limit", "1.5GB"));
        assertEquals(3L << 29, Settings.size("memory_limit", "1.5 GiB"));
        assertEquals(2048, Settings.size("memory_limit", "2kib"));
        assertEquals(4096, Settings.size("memory_limit", "4096"));
        assertEquals(0, Settings.size("memory_limit", "0"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.size("memory_limit", "lots"));
        assertEquals("memory_limit must be a number of bytes, or a number with KB, MB, GB or TB (or KiB, MiB, GiB, TiB), "
                + "not 'lots'", e.getMessage());
        assertEquals("0 B", Settings.describeSize(0));
        assertEquals("999 B", Settings.describeSize(999));
        assertEquals("1 MB", Settings.describeSize(1_000_000));
        assertEquals("1.5 GB", Settings.describeSize(1_500_000_000L));
        assertEquals("12.3 MB", Settings.describeSize(12_345_678));
        assertEquals("123 MB", Settings.describeSize(123_456_789));
    }
}
