package dev.starling.exec.accel;

import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;

/**
 * Decides, before a query runs, where each pipeline that an accelerator could take runs: an
 * aggregation's input pipeline, and each pipeline of result rows (the query's, a sort's or a
 * union's input). Every other pipeline runs on the CPU.
 */
public interface Placer {
    /**
     * Where the pipeline feeding {@code node} runs under {@code settings}, and why. {@code wanted}:
     * what the plan above keeps of its groups, which the accelerator may apply before they come
     * back; the plan above still runs on the CPU over what does. {@code estimates}: the optimizer's
     * row estimates of the plan (those of {@code node} are its groups).
     */
    Placement aggregate(AggregateNode node, GroupsWanted wanted, PlanEstimates estimates, Settings settings);

    /**
     * Where the pipeline producing {@code top}'s rows (no aggregation in it) runs under {@code settings},
     * and why; {@code sort}: the sort they feed (null: none), which the accelerator may apply before
     * they come back, or of which it may pick the first rows its limit keeps ({@link DevicePlan#sortsRows});
     * {@code estimates} as for {@link #aggregate}.
     */
    Placement rows(PlanNode top, SortNode sort, PlanEstimates estimates, Settings settings);

    /**
     * As {@link #rows} for the rows of an input of a join the CPU runs, which it consumes whole
     * (into its table, or marking the table's rows) before anything above the join runs: rows that
     * come back from the accelerator whole delay nothing that streaming them would start sooner.
     */
    default Placement joinInput(PlanNode top, PlanEstimates estimates, Settings settings) {
        return rows(top, null, estimates, settings);
    }

    /**
     * Where sort {@code node} orders rows that reach it on the host (its input pipeline does not
     * sort them on the accelerator; for a sort with a limit, they come from a result held in
     * memory) under {@code settings}: on the accelerator, which is handed their keys and hands back
     * their order ({@link Accelerator#sort}), or on the CPU.
     */
    Placement sort(SortNode node, PlanEstimates estimates, Settings settings);

    /**
     * Whether the accelerator is weighed at all under {@code settings} (a device to plan for, a
     * session that allows it), so that its reasons for leaving a pipeline to the CPU are worth
     * showing beside the CPU's own.
     */
    default boolean weighs(Settings settings) {
        return false;
    }

    /** Everything on the CPU, for {@code reason} (empty: none worth showing). */
    static Placer cpu(String reason) {
        Placement cpu = Placement.cpu(reason);
        return new Placer() {
            @Override
            public Placement aggregate(AggregateNode node, GroupsWanted wanted, PlanEstimates estimates,
                                       Settings settings) {
                return cpu;
            }

            @Override
            public Placement rows(PlanNode top, SortNode sort, PlanEstimates estimates, Settings settings) {
                return cpu;
            }

            @Override
            public Placement sort(SortNode node, PlanEstimates estimates, Settings settings) {
                return cpu;
            }
        };
    }
}
