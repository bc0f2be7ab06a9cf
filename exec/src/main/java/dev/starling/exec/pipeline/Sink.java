package dev.starling.exec.pipeline;

import dev.starling.exec.vector.Batch;
import java.util.List;

/**
 * The end of a pipeline. Each worker gets its own local state {@code L}; {@link #finish} merges the
 * states of all workers once every morsel is done (partial aggregates, build partitions).
 */
public interface Sink<L> {
    L createLocal();

    void accept(L local, Batch batch);

    void finish(List<L> locals);

    /**
     * The host memory one worker's state holds now, in the units the admission's estimates use
     * (every value 8 bytes): what counts against the query's {@code memory_limit} while it runs.
     */
    default long held(L local) {
        return 0;
    }

    /** The host memory the sink's result holds once {@link #finish} has merged the workers' states. */
    default long heldWhenFinished() {
        return 0;
    }

    /**
     * Whether {@link #accept} may wait on something outside the query (a client reading the
     * result): another query's thread must not run such a pipeline's workers in the middle of its
     * own morsel, which would then wait too.
     */
    default boolean waitsOnConsumer() {
        return false;
    }
}
