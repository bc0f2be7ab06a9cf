package dev.starling.exec.run;

import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.exec.pipeline.PipelineRunner;
import dev.starling.exec.pipeline.SharedBuilds;
import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.pipeline.Stream;
import dev.starling.exec.QueryContext;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.op.HashAggregateSink;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.vector.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * An aggregation run by the CPU workers and an accelerator together (Lutz's thesis' §3.5): both claim
 * the fact scan's chunks from one {@link MorselDispatcher}, the CPU workers grouping theirs as
 * usual, the accelerator on a thread of its own into states it hands back at the end, which join
 * the workers' groups in the merge. When the accelerator gives up having claimed chunks, their rows
 * are nowhere else, so the aggregation runs again on the CPU alone; when it gives up before
 * claiming any, the CPU workers have claimed every chunk and their groups are the whole result.
 * The hash join tables the accelerator shares come to the CPU workers' pipeline through one
 * {@link SharedBuilds}, freed when both are done.
 */
final class CoProcessedAggregate {
    private final AggregateNode node;
    private final Accelerator.SharedPart part;
    private final PipelineRunner runner;
    private final QueryContext ctx;
    private volatile boolean accelerated;

    CoProcessedAggregate(AggregateNode node, Accelerator.SharedPart part, PipelineRunner runner, QueryContext ctx) {
        this.node = node;
        this.part = part;
        this.runner = runner;
        this.ctx = ctx;
    }

    /**
     * The aggregation's rows; {@code input} compiles its input pipeline with the fact scan reading
     * the chunks the dispatcher gives it and the shared joins probing the accelerator's tables,
     * {@code cpuOnly} runs the aggregation on the CPU alone.
     */
    Batch run(BiFunction<MorselDispatcher, SharedBuilds, Stream> input, Supplier<Batch> cpuOnly) {
        try (SharedBuilds tables = new SharedBuilds(part.sharedBuilds())) {
            return run(input, tables, cpuOnly);
        }
    }

    private Batch run(BiFunction<MorselDispatcher, SharedBuilds, Stream> input, SharedBuilds tables,
                      Supplier<Batch> cpuOnly) {
        MorselDispatcher morsels = new MorselDispatcher(part.fact().table().chunkCount());
        FutureTask<Optional<GroupStates>> accelerated = new FutureTask<>(() -> {
            try {
                return part.run(morsels, tables);
            } finally {
                tables.finish();
            }
        });
        Thread.ofPlatform().daemon().name("starling-shared-" + node.hashCode()).start(accelerated);
        HashAggregateSink sink = new HashAggregateSink(node);
        List<HashAggregateSink.Groups> locals = new ArrayList<>();
        try {
            runner.run(input.apply(morsels, tables), new Sink<HashAggregateSink.Groups>() {
                @Override
                public HashAggregateSink.Groups createLocal() {
                    return sink.createLocal();
                }

                @Override
                public void accept(HashAggregateSink.Groups local, Batch batch) {
                    sink.accept(local, batch);
                }

                @Override
                public long held(HashAggregateSink.Groups local) {
                    return sink.held(local);
                }

                @Override
                public void finish(List<HashAggregateSink.Groups> done) {
                    locals.addAll(done);
                }

                /** The workers' groups stay as they are until the accelerator's share is merged with them. */
                @Override
                public long heldWhenFinished() {
                    return locals.stream().mapToLong(sink::held).sum();
                }
            }, ctx);
        } catch (RuntimeException | Error e) {
            morsels.close();
            try {
                await(accelerated);
            } catch (RuntimeException | Error alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        Optional<GroupStates> share = await(accelerated);
        this.accelerated = share.isPresent();
        if (share.isEmpty() && morsels.acceleratorChunks() > 0) {
            return cpuOnly.get();
        }
        share.ifPresent(s -> locals.add(sink.local(s)));
        sink.finish(locals);
        return sink.result();
    }

    /** Whether the accelerator's states are part of the result {@link #run} gave (it did not give up). */
    boolean accelerated() {
        return accelerated;
    }

    /** The accelerator's states, once its thread is done; what it threw is thrown here. */
    private Optional<GroupStates> await(FutureTask<Optional<GroupStates>> accelerated) {
        try {
            return accelerated.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ctx.cancel();
            throw new IllegalStateException("interrupted while waiting for the accelerator's share", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
