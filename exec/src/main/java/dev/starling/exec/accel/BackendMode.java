package dev.starling.exec.accel;

import java.util.Locale;

/**
 * Which backend a session asks for: {@code AUTO} lets the cost model choose per pipeline, {@code GPU}
 * runs every pipeline the GPU can run there, {@code CPU} runs everything on the CPU. Pipelines the
 * GPU cannot run stay on the CPU in every mode.
 */
public enum BackendMode {
    AUTO, GPU, CPU;

    public static BackendMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("backend must be auto, gpu or cpu, not '" + text + "'");
        }
    }
}
