package dev.starling.exec.accel;

/**
 * Where a pipeline runs ({@code accelerated}: on the accelerator, with the {@code plan} made for
 * it, else on the CPU; {@code shared}: on the accelerator and the CPU workers together, sharing its
 * fact rows) and why.
 */
public record Placement(boolean accelerated, boolean shared, String reason, DevicePlan plan) {

    public Placement {
        if (shared && !accelerated) {
            throw new IllegalArgumentException("a shared pipeline runs on the accelerator too");
        }
        if (accelerated != (plan != null)) {
            throw new IllegalArgumentException("a pipeline has an accelerator's plan exactly when it runs there");
        }
    }

    public static Placement cpu(String reason) {
        return new Placement(false, false, reason, null);
    }

    public static Placement gpu(String reason, DevicePlan plan) {
        return new Placement(true, false, reason, plan);
    }

    public static Placement both(String reason, DevicePlan plan) {
        return new Placement(true, true, reason, plan);
    }

    /** The processors it runs on: cpu, gpu, or gpu+cpu. */
    public String device() {
        return shared ? "gpu+cpu" : accelerated ? "gpu" : "cpu";
    }

    /** How EXPLAIN shows it. */
    public String describe() {
        return "backend=" + device() + (reason.isEmpty() ? "" : " (" + reason + ")");
    }
}
