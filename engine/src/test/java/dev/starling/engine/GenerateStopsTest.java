package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryTimeoutException;
import dev.starling.exec.Settings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GENERATE stops with its statement's context, as INSERT and LOAD do: past its time limit (or
 * cancelled) it ends at its next checkpoint, every few tens of thousands of rows, and none of its
 * tables is made.
 */
class GenerateStopsTest {

    @Test
    void aGenerateThatRunsPastItsTimeLimitMakesNoTable() {
        try (Starling db = Starling.inMemory()) {
            PreparedQuery generate = db.prepare("GENERATE TPCH SCALE FACTOR 1 SCHEMA stopped");
            QueryContext ctx = db.newContext();
            // SF 1 takes seconds; the limit ends it at a checkpoint long before
            ctx.limitTo(Duration.ofMillis(200));
            assertThrows(QueryTimeoutException.class,
                    () -> db.update(generate, Settings.DEFAULT, ctx, rows -> { }));
            assertEquals(List.of(List.of(0L)), db.query(
                    "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'stopped'").rows());
        }
    }
}
