package dev.starling.exec;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import java.util.List;

/**
 * Receives a query's result as it is produced. {@link #accept} calls never overlap (the executor
 * serializes them), unless the sink is {@link #concurrent}, and may come from different worker
 * threads; in an ORDER BY result they come in order, from one thread at a time.
 */
public interface BatchSink {
    /** Called once, before any batch. */
    default void start(List<Field> fields) { }

    void accept(Batch batch);

    /** Called once after the last batch of a query that completed. */
    default void finish() { }

    /**
     * Whether {@link #accept} may be called by several workers at once, so that each converts its
     * own batches (a Flight result's Arrow record batches) while another's are sent.
     */
    default boolean concurrent() {
        return false;
    }
}
