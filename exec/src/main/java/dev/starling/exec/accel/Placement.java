package dev.starling.exec.accel;

/**
 * Where a pipeline runs ({@code accelerated}: on the accelerator, else on the CPU; {@code shared}:
 * on the accelerator and the CPU workers together, sharing its fact rows) and why.
 */
public record Placement(boolean accelerated, boolean shared, String reason) {

    public Placement {
        if (shared && !accelerated) {
            throw new IllegalArgumentException("a shared pipeline runs on the accelerator too");
        }
    }

    public static Placement cpu(String reason) {
        return new Placement(false, false, reason);
    }

    public static Placement gpu(String reason) {
        return new Placement(true, false, reason);
    }

    public static Placement both(String reason) {
        return new Placement(true, true, reason);
    }

    /** How EXPLAIN shows it. */
    public String describe() {
        return "backend=" + (shared ? "gpu+cpu" : accelerated ? "gpu" : "cpu") + (reason.isEmpty() ? "" : " (" + reason + ")");
    }
}
