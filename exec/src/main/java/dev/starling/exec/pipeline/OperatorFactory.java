package dev.starling.exec.pipeline;

/** Makes one worker's instance of a streaming operator; instances are not shared between threads. */
@FunctionalInterface
public interface OperatorFactory {
    Operator create();
}
