package dev.starling.exec.pipeline;

import dev.starling.exec.vector.Batch;
import java.util.function.Consumer;

/**
 * A streaming operator of one worker (filter, project, join probe, limit): a batch in, its output
 * out as zero or more batches (a join whose matches outgrow one batch hands them on in pieces, so
 * no batch grows without bound).
 */
public interface Operator {
    /** Hands the output for one input batch to {@code out}; never an empty batch. */
    void process(Batch in, Consumer<Batch> out);

    /** Passes {@code b} on unless it is null or empty. */
    static void emit(Batch b, Consumer<Batch> out) {
        if (b != null && b.rows() > 0) {
            out.accept(b);
        }
    }

    /** True once no further input can produce output (a reached LIMIT): the worker stops feeding it. */
    default boolean finished() {
        return false;
    }
}
