package dev.starling.exec.accel;

import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.vector.Batch;
import java.util.BitSet;

/** Runs a plan on the CPU backend and returns its whole result (a join's small build side). */
@FunctionalInterface
public interface BuildRunner {
    /** The rows of {@code plan}; only the columns in {@code needed} are guaranteed to be filled. */
    Batch materialize(PlanNode plan, BitSet needed);
}
