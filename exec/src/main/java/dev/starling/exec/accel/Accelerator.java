package dev.starling.exec.accel;

import dev.starling.exec.QueryContext;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.exec.pipeline.SharedBuilds;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.Batch;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * A backend that runs the pipelines a plan placed on it (the GPU) instead of the CPU: the
 * planner's {@link Placer} decided where each runs and made the {@link DevicePlan} it is handed.
 * Whatever it gives up on runs on the CPU, so an accelerator never makes a query fail that the CPU
 * could answer.
 */
public interface Accelerator {

    /**
     * Runs {@code node}'s input pipeline as {@code plan} says, over {@code inputs}: its groups, or
     * the rows of the plan over them that it computes ({@link DevicePlan#computesAbove}).
     * Empty when the pipeline must run on the CPU after all (out of device memory, an arithmetic case the kernels
     * leave to the CPU); the accelerator logs why.
     */
    Optional<Batch> aggregate(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx);

    /**
     * The accelerator's part of {@code node}'s pipeline, placed to be shared with the CPU workers;
     * empty when the accelerator cannot take part after all.
     */
    Optional<SharedPart> share(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx);

    /** The accelerator's part of an aggregation run together with the CPU workers. */
    interface SharedPart {
        /** The scan (of the plan) whose chunks the CPU workers and the accelerator share. */
        ScanNode fact();

        /**
         * The build sides (plan nodes of the aggregation's input) of the hash joins whose tables the
         * accelerator builds once for both processors; the CPU workers build their own of the others.
         */
        List<PlanNode> sharedBuilds();

        /**
         * Runs the pipeline over the chunks it claims from {@code morsels} until none is left (on a
         * thread of its own, beside the CPU workers), publishing the tables of {@link #sharedBuilds}
         * to {@code tables} as it builds them, and returns its groups' states over those rows; empty
         * when it gave up (the accelerator logs why).
         */
        Optional<GroupStates> run(MorselDispatcher morsels, SharedBuilds tables);
    }

    /**
     * The rows of {@code top}, placed here with {@code plan}, or empty when they must come from the
     * CPU after all; {@code needed}: the columns the plan above reads, the others may come back null.
     */
    Optional<Batch> rows(PlanNode top, DevicePlan plan, DeviceInputs inputs, BitSet needed, QueryContext ctx);

    /**
     * The indexes of the rows of {@code rows} (the input of sort {@code node}, placed here with
     * {@code plan}) that the sort keeps, in its order: its offset and limit applied; empty when the
     * CPU must sort them after all.
     */
    Optional<int[]> sort(SortNode node, Batch rows, DevicePlan plan, QueryContext ctx);
}
