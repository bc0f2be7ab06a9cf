package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.storage.Table;
import java.util.Optional;

/**
 * The GPU's part of an aggregation it shares with the CPU workers (Lutz's thesis' §3.5.1): once its
 * kernel is ready it claims batches of the fact table's chunks from the shared dispatcher and runs
 * the kernel over each, queueing the next batch before waiting for the one running, so the GPU is
 * not left idle while a batch is claimed and launched. It returns its groups' states over the rows
 * it ran, for the CPU's merge. The fact columns are resident, so a batch costs the GPU no copy. The
 * tables of large build sides it builds once in host memory and hands to the CPU workers
 * ({@link SharedTables}).
 */
public final class SharedAggregateRun extends PipelineRun<GroupStates> {
    /** The most chunks (of 64K rows) a batch takes: 4M rows, so that a batch's launch is a small part of its time. */
    static final int BATCH_CHUNKS = 64;
    private final CloneChoice clones;
    private final MorselDispatcher morsels;
    private final SharedTables tables;

    public SharedAggregateRun(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, CloneChoice clones,
                              OversizedJoin oversized, MorselDispatcher morsels, SharedTables tables) {
        super(device, cache, pipeline, oversized);
        this.clones = clones;
        this.morsels = morsels;
        this.tables = tables;
    }

    @Override
    public Optional<GroupStates> run(DeviceInputs inputs) {
        // sized for every group there can be: the CPU workers' chunks are gone when a run would be redone
        try (AggregateKernel kernel = AggregateKernel.prepare(device, cache, pipeline, clones, oversized, inputs,
                tables, StarPipeline.NO_ESTIMATE);
             GpuStream stream = new GpuStream(device)) {
            long start = System.nanoTime();
            int chunks = 0;
            GpuStream.Event running = null;
            try {
                for (int[] batch = morsels.claimBatch(BATCH_CHUNKS); batch != null; batch = morsels.claimBatch(BATCH_CHUNKS)) {
                    chunks += batch[1] - batch[0];
                    kernel.kernel().enqueue(firstRow(batch[0]), firstRow(batch[1]), stream.handle());
                    GpuStream.Event previous = running;
                    running = stream.record();
                    if (previous != null) {
                        try (previous) {
                            previous.await("star pipeline");
                        }
                    }
                }
            } finally {
                if (running != null) {
                    running.close();
                }
            }
            stream.synchronize("star pipeline");
            double millis = ms(System.nanoTime() - start);
            long decode = System.nanoTime();
            declined = kernel.handedBack();
            Optional<GroupStates> result = declined.isEmpty() ? Optional.of(kernel.states(null, null)) : Optional.empty();
            stats = kernel.stats(millis, ms(System.nanoTime() - decode), chunks);
            return result;
        } catch (Unsupported e) {
            declined = e.getMessage();
            return Optional.empty();
        }
    }

    /** The first row of chunk {@code c} (the fact's row count past its last chunk). */
    private long firstRow(int c) {
        return Math.min(pipeline.fact().rowCount(), (long) c << Table.CHUNK_SHIFT);
    }
}
