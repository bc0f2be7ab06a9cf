package dev.starling.exec.accel;

import dev.starling.exec.plan.PlanNode;
import java.util.List;

/**
 * What the planner decided for a pipeline it placed on the accelerator (the compiled pipeline and
 * its physical choices), made once before the query runs; the CPU backend hands it back to the
 * accelerator unread.
 */
public interface DevicePlan {
    /** The device it was planned for (a GPU profile's name), for messages. */
    String target();

    /**
     * The plans whose rows the pipeline reads besides its scan (the build sides of its joins), which
     * the CPU backend runs to their end before it hands the pipeline over ({@link DeviceInputs}).
     */
    List<PlanNode> inputs();

    /**
     * Whether the accelerator builds join build side {@code build} itself (then it is not one of
     * {@link #inputs}); none unless the plan says so.
     */
    default boolean buildsOnDevice(PlanNode build) {
        return false;
    }
}
