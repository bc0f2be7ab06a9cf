package dev.starling.gpu.pipeline;

import java.util.stream.IntStream;

/**
 * Runs a loop over many returned groups in slices on the common pool: reading back a million
 * groups is a few simple steps per group (and a 64-bit division per digit, tens of cycles), which
 * one thread does in tens of milliseconds.
 */
final class Slices {
    /** Below this many items a loop runs on the calling thread. */
    private static final int SLICE = 1 << 16;

    private Slices() { }

    /** The part of a loop over items [from, to). */
    @FunctionalInterface
    interface Slice {
        void run(int from, int to);
    }

    /** Runs {@code slice} over [0, n), in parallel slices when there are many. */
    static void forEach(int n, Slice slice) {
        int slices = (n + SLICE - 1) / SLICE;
        if (slices <= 1) {
            slice.run(0, n);
            return;
        }
        IntStream.range(0, slices).parallel().forEach(s -> slice.run(s * SLICE, Math.min(n, (s + 1) * SLICE)));
    }
}
