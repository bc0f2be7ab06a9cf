package dev.starling.exec;

import java.util.Locale;

/**
 * Which backend a session asks for: {@code AUTO} lets the cost model choose per pipeline (the GPU,
 * the CPU, or both sharing the fact rows), {@code GPU} runs every pipeline the GPU can run there,
 * {@code BOTH} runs every aggregation the GPU can run on the GPU and the CPU together, {@code CPU}
 * runs everything on the CPU. Pipelines the GPU cannot run stay on the CPU in every mode.
 */
public enum BackendMode {
    AUTO, GPU, BOTH, CPU;

    public static BackendMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("backend must be auto, gpu, both or cpu, not '" + text + "'");
        }
    }
}
