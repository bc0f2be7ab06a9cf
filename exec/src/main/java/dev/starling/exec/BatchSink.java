package dev.starling.exec;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import java.util.List;

/**
 * Receives a query's result as it is produced. {@link #accept} calls never overlap (the executor
 * serializes them) but may come from different worker threads; in an ORDER BY result they come in order.
 */
public interface BatchSink {
    /** Called once, before any batch. */
    default void start(List<Field> fields) { }

    void accept(Batch batch);

    /** Called once after the last batch of a query that completed. */
    default void finish() { }
}
