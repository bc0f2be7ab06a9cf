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
}
