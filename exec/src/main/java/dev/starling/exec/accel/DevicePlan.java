package dev.starling.exec.accel;

/**
 * What the planner decided for a pipeline it placed on the accelerator (the compiled pipeline and
 * its physical choices), made once before the query runs; the CPU backend hands it back to the
 * accelerator unread.
 */
public interface DevicePlan {
    /** The device it was planned for (a GPU profile's name), for messages. */
    String target();
}
