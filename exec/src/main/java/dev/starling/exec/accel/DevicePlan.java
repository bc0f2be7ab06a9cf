package dev.starling.exec.accel;

import dev.starling.exec.plan.PlanNode;
import java.util.List;
import java.util.Optional;

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
     * How the accelerator builds join build side {@code build} itself (then it is not one of
     * {@link #inputs}), for EXPLAIN; empty, as for every build unless the plan says so, when the
     * CPU builds it.
     */
    default Optional<String> deviceBuild(PlanNode build) {
        return Optional.empty();
    }

    /**
     * Whether the pipeline's rows come back in the order of the sort they feed, cut to its offset
     * and limit, so that the sort has nothing left to do.
     */
    default boolean sortsRows() {
        return false;
    }

    /**
     * Whether the pipeline's result is {@code node}'s rows (the plan over its aggregation's groups
     * that tops a pipeline of its own, {@link GroupsWanted#above}), computed on the device, rather
     * than the groups.
     */
    default boolean computesAbove(PlanNode node) {
        return false;
    }
}
