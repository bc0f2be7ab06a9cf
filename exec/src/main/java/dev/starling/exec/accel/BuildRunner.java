package dev.starling.exec.accel;

import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.Table;
import java.util.BitSet;

/**
 * What an accelerated pipeline gets from the CPU backend: plans run to their whole result (a
 * join's small build side), and tables by name (the table a foreign key's codes point into).
 */
public interface BuildRunner {
    /** The rows of {@code plan}; only the columns in {@code needed} are guaranteed to be filled. */
    Batch materialize(PlanNode plan, BitSet needed);

    /** The current version of table {@code name}. */
    Table table(String name);
}
