package dev.starling.gpu.pipeline;

/** The GPU cannot run a pipeline; the message says what it lacks (EXPLAIN shows it). */
public final class Unsupported extends Exception {
    public Unsupported(String message) {
        super(message, null, false, false);
    }
}
