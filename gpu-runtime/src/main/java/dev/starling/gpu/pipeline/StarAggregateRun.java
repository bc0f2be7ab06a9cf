package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.exec.vector.Batch;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.Optional;

/**
 * Runs a compiled {@link StarPipeline}'s aggregation on the GPU alone: the fused kernel over the
 * fact rows its scan reads (every chunk its zone maps may match, {@link FactScan}), its groups' states finished into the aggregation's rows (those that pass the HAVING
 * terms the GPU applies, and the first in a sort's order with a limit), or into the rows of the
 * plan over them that the GPU computes ({@link GroupProgram}). Empty when a kernel hands
 * the work back (an overflow or division by zero, which the CPU then reports exactly as it would
 * have) or the pipeline cannot run there (see {@link AggregateKernel#prepare}).
 */
public final class StarAggregateRun extends PipelineRun<Batch> {
    private final CloneChoice clones;
    private final GroupFilter having;
    private final GroupOrder order;
    private final GroupProgram.Bound program;
    private final long expectedGroups;

    /**
     * {@code clones}: whether the grouped counts, or a probed dimension, go through a clone layout,
     * and which; {@code having}: the HAVING terms the groups must pass to come back (null: none);
     * {@code order}: the order in which only the first groups are wanted (null: all are);
     * {@code program}: the plan over the groups whose rows come back instead, bound (null: none);
     * {@code expectedGroups}: the optimizer's estimate of the groups, which a group hash table is
     * first sized for ({@link StarPipeline#NO_ESTIMATE}: none).
     */
    public StarAggregateRun(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, CloneChoice clones,
                            GroupFilter having, GroupOrder order, GroupProgram.Bound program, long expectedGroups,
                            OversizedJoin oversized) {
        super(device, cache, pipeline, oversized);
        this.clones = clones;
        this.having = having;
        this.order = order;
        this.program = program;
        this.expectedGroups = expectedGroups;
    }

    /** Runs the kernel over every fact row, again with a table for all groups there can be when they outgrew the first. */
    @Override
    public Optional<Batch> run(DeviceInputs inputs) {
        long sizedFor = expectedGroups;
        while (true) {
            try (AggregateKernel kernel = AggregateKernel.prepare(device, cache, pipeline, clones, oversized, inputs,
                    SharedTables.NONE, sizedFor)) {
                float millis = kernel.run();
                if (kernel.outgrewItsTable()) {
                    sizedFor = StarPipeline.NO_ESTIMATE;
                    continue;
                }
                long start = System.nanoTime();
                declined = kernel.handedBack();
                Optional<Batch> result = declined.isEmpty() ? finished(kernel) : Optional.empty();
                stats = kernel.stats(millis, ms(System.nanoTime() - start), kernel.chunksRead());
                return result;
            } catch (Unsupported e) {
                declined = e.getMessage();
                return Optional.empty();
            }
        }
    }

    /** The aggregation's rows, or its program's, from the kernel's states; empty, with why, when the program hands them back. */
    private Optional<Batch> finished(AggregateKernel kernel) throws Unsupported {
        if (program == null) {
            return Optional.of(kernel.states(having, order).finish(pipeline.aggregate()));
        }
        GroupProgram.Computed computed = kernel.computed(having, order, program);
        declined = computed.declined() == null ? "" : computed.declined();
        return Optional.ofNullable(computed.rows());
    }
}
