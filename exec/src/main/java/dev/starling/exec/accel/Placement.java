package dev.starling.exec.accel;

/** Where a pipeline runs ({@code accelerated}: on the accelerator, else on the CPU) and why. */
public record Placement(boolean accelerated, String reason) {

    public static Placement cpu(String reason) {
        return new Placement(false, reason);
    }

    public static Placement gpu(String reason) {
        return new Placement(true, reason);
    }

    /** How EXPLAIN shows it. */
    public String describe() {
        return "backend=" + (accelerated ? "gpu" : "cpu") + (reason.isEmpty() ? "" : " (" + reason + ")");
    }
}
