package dev.starling.gpu;

import dev.starling.exec.QueryContext;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.BackendMode;
import dev.starling.exec.accel.BuildRunner;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Settings;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.exec.pipeline.SharedBuilds;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.gpu.cache.ColumnKey;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.clone.ColumnCodes;
import dev.starling.gpu.clone.ConflictStatistics;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.hybrid.OversizedJoinModel;
import dev.starling.gpu.pipeline.CloneChoice;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.gpu.pipeline.PipelineRun;
import dev.starling.gpu.pipeline.RunStats;
import dev.starling.gpu.pipeline.SharedAggregateRun;
import dev.starling.gpu.pipeline.SharedTables;
import dev.starling.gpu.pipeline.StarAggregateRun;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.gpu.pipeline.StarPipelineCompiler;
import dev.starling.gpu.pipeline.StarRowsRun;
import dev.starling.gpu.pipeline.Unsupported;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU backend: runs aggregations over star pipelines as fused kernels on one GPU, with fact
 * columns kept resident in a column cache, alone or sharing the fact rows with the CPU workers.
 * Pipelines run one at a time on the device (a single pipeline keeps it busy); whatever the GPU
 * cannot run, or gives back, runs on the CPU.
 */
public final class GpuBackend implements Accelerator, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GpuBackend.class);
    private static final String KERNELS = "star_pipeline";
    private static final long CONFLICT_SAMPLE_ROWS = 1 << 21;

    private final GpuDevice device;
    private final GpuColumnCache cache;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile RunStats lastRun;
    private final java.util.concurrent.atomic.AtomicLong runs = new java.util.concurrent.atomic.AtomicLong();
    /** Per column and window, its conflicts as stored (estimated once per column version). */
    private final Map<ColumnKey, ConflictStatistics> storedConflicts = new HashMap<>();
    private final ReferenceQueue<Column> collected = new ReferenceQueue<>();

    private GpuBackend(GpuDevice device) {
        this.device = device;
        this.cache = new GpuColumnCache(device);
    }

    private static final class Shared {
        static final Optional<GpuBackend> BACKEND = detect(Integer.getInteger("starling.gpu.device", 0),
                Long.getLong("starling.gpu.budget", 0));
    }

    /**
     * The process's GPU backend, opened on first use: GPU {@code starling.gpu.device} (system
     * property, default 0) with a budget of {@code starling.gpu.budget} bytes (default: most of its
     * free memory); empty without kernels or a GPU, or when {@code starling.gpu} is {@code off}.
     */
    public static Optional<GpuBackend> shared() {
        if ("off".equalsIgnoreCase(System.getProperty("starling.gpu", ""))) {
            return Optional.empty();
        }
        return Shared.BACKEND;
    }

    /**
     * The GPU backend on GPU {@code ordinal} with a device memory budget of {@code budget} bytes (0:
     * most of the free memory), or empty, having said once why, when this build has no kernels or
     * the machine no usable GPU.
     */
    public static Optional<GpuBackend> detect(int ordinal, long budget) {
        if (!GpuDevice.hasKernels(KERNELS)) {
            LOG.info("this build has no GPU kernels (it was built without nvcc): running on the CPU backend");
            return Optional.empty();
        }
        try {
            GpuDevice device = GpuDevice.open(ordinal, budget);
            LOG.info("GPU backend on {}", device.describe());
            return Optional.of(new GpuBackend(device));
        } catch (GpuException e) {
            LOG.info("no usable GPU ({}): running on the CPU backend", e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public Placement place(AggregateNode node, Settings settings) {
        if (settings.backend() == BackendMode.CPU) {
            return GpuPlacement.place(node, settings.backend(), cache::isResident);
        }
        StarPipeline pipeline;
        try {
            pipeline = StarPipelineCompiler.compile(node);
        } catch (Unsupported e) {
            return Placement.cpu("the GPU cannot run " + e.getMessage());
        }
        Placement placement = GpuPlacement.place(pipeline, settings.backend(), cache::isResident);
        if (!placement.accelerated()) {
            return placement;
        }
        List<String> reasons = new ArrayList<>(List.of(placement.reason()));
        reasons.addAll(oversizedJoins(pipeline, settings, tableMemory(pipeline)));
        String clones = cloneChoice(pipeline, settings).reason();
        if (!clones.isEmpty()) {
            reasons.add(clones);
        }
        if (settings.backend() == BackendMode.GPU) {
            return Placement.gpu(String.join("; ", reasons));
        }
        CoProcessingModel.Prediction shared = predictSharing(pipeline);
        reasons.add(CoProcessingModel.reason(shared, settings.backend()));
        return settings.backend() == BackendMode.BOTH || shared.shares() ? Placement.both(String.join("; ", reasons))
                : Placement.gpu(String.join("; ", reasons));
    }

    /** Device memory the budget leaves for the pipeline's hash tables beside its fact columns and group contributions. */
    private long tableMemory(StarPipeline pipeline) {
        long contributions = pipeline.dimensions().stream().mapToLong(d -> 4 * d.range()).sum();
        return Math.max(0, device.memory().budget() - GpuPlacement.factBytes(pipeline) - contributions);
    }

    private CoProcessingModel.Prediction predictSharing(StarPipeline pipeline) {
        return CoProcessingModel.predict(pipeline, GpuPlacement.factBytes(pipeline), tableMemory(pipeline),
                Runtime.getRuntime().availableProcessors());
    }

    /**
     * For each hash join whose table would not fit the {@code left} bytes of the budget beside the
     * fact columns and the dimensions' group contributions, how it would run and why (the run
     * decides again with the sizes it meets).
     */
    private List<String> oversizedJoins(StarPipeline pipeline, Settings settings, long left) {
        List<String> out = new ArrayList<>();
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            StarPipeline.Dimension dim = pipeline.dimensions().get(d);
            long bytes = DimensionHashTable.bytesFor(dim.range());
            if (dim.hashed() && bytes > left) {
                out.add("dimension " + d + ": " + OversizedJoinModel.choose(settings.oversizedJoin(),
                        pipeline.probeKeyColumn(d) >= 0, pipeline.fact().rowCount(), dim.range(), bytes, left).reason());
            }
        }
        return out;
    }

    @Override
    public Optional<Batch> aggregate(AggregateNode node, BuildRunner builds, QueryContext ctx) {
        try {
            StarPipeline pipeline = StarPipelineCompiler.compile(node);
            return runOnDevice(new StarAggregateRun(device, cache, pipeline, cloneChoice(pipeline, ctx.settings()),
                    ctx.settings().oversizedJoin()), builds, ctx);
        } catch (Unsupported e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<SharedPart> share(AggregateNode node, BuildRunner builds, QueryContext ctx) {
        StarPipeline pipeline;
        try {
            pipeline = StarPipelineCompiler.compile(node);
        } catch (Unsupported e) {
            return Optional.empty();
        }
        CloneChoice clones = cloneChoice(pipeline, ctx.settings());
        // the dimensions' build plans carry the kernel's per-row expressions on top of the joins' own build sides
        Map<Integer, PlanNode> sharedBuilds = new TreeMap<>();
        for (int d : predictSharing(pipeline).sharedTables()) {
            sharedBuilds.put(d, ((ProjectNode) pipeline.dimensions().get(d).build()).input());
        }
        return Optional.of(new SharedPart() {
            @Override
            public ScanNode fact() {
                return pipeline.factScan();
            }

            @Override
            public List<PlanNode> sharedBuilds() {
                return List.copyOf(sharedBuilds.values());
            }

            @Override
            public Optional<GroupStates> run(MorselDispatcher morsels, SharedBuilds tables) {
                // Busy, the device may be running a pipeline whose build side waits on this one (a
                // shared aggregation inside it, on another thread): the CPU workers take every chunk.
                if (!lock.tryLock()) {
                    LOG.debug("GPU busy: the CPU workers run the shared pipeline alone");
                    return Optional.empty();
                }
                try {
                    return runOnDevice(new SharedAggregateRun(device, cache, pipeline, clones,
                            ctx.settings().oversizedJoin(), morsels, new SharedTables(sharedBuilds, tables)), builds, ctx);
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    private CloneChoice cloneChoice(StarPipeline pipeline, Settings settings) {
        return CloneChoice.of(pipeline, settings, device.bankGeometry(), device.sharedMemoryPerBlock(), this::storedConflicts);
    }

    /**
     * A column's conflict statistics as stored (under {@code window}), estimated from its first
     * {@link #CONFLICT_SAMPLE_ROWS} rows once per column version: the planner's rule reads them at
     * every placement, and a full pass over a large column would cost the first query seconds.
     */
    private ConflictStatistics storedConflicts(Column column, int window) {
        synchronized (storedConflicts) {
            for (var ref = collected.poll(); ref != null; ref = collected.poll()) {
                storedConflicts.remove(ref);
            }
            ConflictStatistics s = storedConflicts.get(new ColumnKey(column, window, null));
            if (s == null) {
                s = ConflictStatistics.of(ColumnCodes.of(column, 0, CONFLICT_SAMPLE_ROWS).codes(), device.bankGeometry(), window);
                storedConflicts.put(new ColumnKey(column, window, collected), s);
            }
            return s;
        }
    }

    @Override
    public Placement placeRows(PlanNode top, Settings settings) {
        return GpuPlacement.placeRows(top, settings.backend());
    }

    @Override
    public Optional<Batch> rows(PlanNode top, BuildRunner builds, QueryContext ctx) {
        try {
            return runOnDevice(new StarRowsRun(device, cache, StarPipelineCompiler.compileRows(top),
                    ctx.settings().oversizedJoin()), builds, ctx);
        } catch (Unsupported e) {
            return Optional.empty();
        }
    }

    /** Runs a pipeline alone on the device; a pipeline handed back, a GPU failure or lack of memory gives empty (the CPU's turn). */
    private <R> Optional<R> runOnDevice(PipelineRun<R> run, BuildRunner builds, QueryContext ctx) {
        lock.lock();
        try {
            ctx.checkCancelled();
            Optional<R> result = run.run(builds);
            lastRun = run.stats();
            if (result.isPresent()) {
                runs.incrementAndGet();
            } else {
                LOG.debug("GPU pipeline handed to the CPU: {}", run.declined());
            }
            return result;
        } catch (GpuOutOfMemoryException e) {
            LOG.info("GPU pipeline handed to the CPU: {}", e.getMessage());
            return Optional.empty();
        } catch (GpuException e) {
            LOG.warn("GPU pipeline failed, running it on the CPU: {}", e.getMessage());
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** Uploads {@code table}'s columns and keeps them resident (see {@link GpuColumnCache#keepResident}). */
    public void keepResident(Table table) {
        lock.lock();
        try {
            cache.keepResident(table);
        } finally {
            lock.unlock();
        }
    }

    /** Lets a resident table's columns be evicted again. */
    public void releaseResident(String table) {
        cache.release(table);
    }

    /** How many pipelines the GPU has answered. */
    public long runs() {
        return runs.get();
    }

    /** The last GPU pipeline run's kernel time and bytes (for benchmarks). */
    public RunStats lastRun() {
        return lastRun;
    }

    public GpuDevice device() {
        return device;
    }

    public GpuColumnCache columnCache() {
        return cache;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            cache.close();
            device.close();
        } finally {
            lock.unlock();
        }
    }
}
