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
}
