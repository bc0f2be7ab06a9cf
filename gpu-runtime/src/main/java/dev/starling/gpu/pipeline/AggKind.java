package dev.starling.gpu.pipeline;

/** What an aggregate slot folds, in the order of {@code enum AggKind} in the kernels' {@code pipeline.cuh}. */
enum AggKind {
    COUNT, SUM_I, SUM_F, MIN_I, MAX_I, MIN_F, MAX_F
}
