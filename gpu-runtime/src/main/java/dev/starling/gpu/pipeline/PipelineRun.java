package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.BuildRunner;
import dev.starling.exec.vector.Batch;
import java.util.Optional;

/** One run of a compiled star pipeline on the GPU: its result, or empty with the reason it was handed back. */
public interface PipelineRun {
    Optional<Batch> run(BuildRunner builds);

    /** Why the last {@link #run} returned empty. */
    String declined();

    /** The last run's times and bytes. */
    RunStats stats();
}
