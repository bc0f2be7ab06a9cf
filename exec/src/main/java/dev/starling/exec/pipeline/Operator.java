package dev.starling.exec.pipeline;

import dev.starling.exec.vector.Batch;

/** A streaming operator of one worker (filter, project, join probe, limit): batch in, batch out. */
public interface Operator {
    /** The output for one input batch; null or an empty batch when nothing passes. */
    Batch process(Batch in);

    /** True once no further input can produce output (a reached LIMIT): the worker stops feeding it. */
    default boolean finished() {
        return false;
    }
}
