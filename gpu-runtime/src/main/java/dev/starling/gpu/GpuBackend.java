package dev.starling.gpu;

import dev.starling.exec.QueryContext;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.exec.pipeline.SharedBuilds;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.Batch;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cache.ResidentAppend;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.HostMemoryPools;
import dev.starling.gpu.cuda.MissingCompilerException;
import dev.starling.gpu.pipeline.HostRowsSort;
import dev.starling.gpu.pipeline.PipelineRun;
import dev.starling.gpu.pipeline.RunStats;
import dev.starling.gpu.pipeline.SharedAggregateRun;
import dev.starling.gpu.pipeline.SharedTables;
import dev.starling.gpu.pipeline.StarAggregateRun;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.gpu.pipeline.StarRowsRun;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.plan.GpuPipelinePlan;
import dev.starling.gpu.plan.GpuPlanner;
import dev.starling.gpu.plan.StoredConflicts;
import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU backend: runs the star pipelines its {@link GpuPlanner} placed on the GPU as fused
 * kernels on one GPU, with fact columns kept resident in a column cache, alone or sharing the fact
 * rows with the CPU workers. Pipelines run one at a time on the device (a single pipeline keeps it
 * busy); whatever the GPU gives back runs on the CPU.
 */
public final class GpuBackend implements Accelerator, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GpuBackend.class);

    private final GpuDevice device;
    private final GpuColumnCache cache;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean appendsOnDevice;
    /** The query whose pipeline holds {@link #lock} (null while none does). */
    private volatile QueryContext holder;
    private volatile RunStats lastRun;
    private final java.util.concurrent.atomic.AtomicLong runs = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong sorts = new java.util.concurrent.atomic.AtomicLong();
    /** Pipelines placed on the GPU that it handed to the CPU (a case it leaves to the CPU, no memory, a failure). */
    private final java.util.concurrent.atomic.AtomicLong handedBack = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong streamedRuns = new java.util.concurrent.atomic.AtomicLong();
    /** Time queries have held the device (its lock) so far: its rate is how busy the GPU is. */
    private final java.util.concurrent.atomic.AtomicLong busyNanos = new java.util.concurrent.atomic.AtomicLong();
    private final StoredConflicts conflicts;

    private GpuBackend(GpuDevice device) {
        this.device = device;
        this.cache = new GpuColumnCache(device);
        this.conflicts = new StoredConflicts(device.bankGeometry());
    }

    /** The process's backends by device, each opened on first use (or the reason there is none, logged once). */
    private static final Map<Integer, Optional<GpuBackend>> SHARED = new HashMap<>();

    /**
     * The process's GPU backend on GPU {@code ordinal}, opened on first use with a budget of
     * {@code budget} bytes (0: most of its free memory) and {@code pools} of pinned host memory (a
     * later caller gets what the first one gave); empty without a usable GPU or CUDA's run-time
     * compiler. A device's context is one per process, so every engine of the process shares its
     * backend.
     */
    public static Optional<GpuBackend> shared(int ordinal, long budget, HostMemoryPools pools) {
        synchronized (SHARED) {
            return SHARED.computeIfAbsent(ordinal, o -> detect(o, budget, pools));
        }
    }

    /** The GPU backend on GPU {@code ordinal}, as {@link #detect(int, long, HostMemoryPools)} with the default pools. */
    public static Optional<GpuBackend> detect(int ordinal, long budget) {
        return detect(ordinal, budget, HostMemoryPools.DEFAULT);
    }

    /**
     * The GPU backend on GPU {@code ordinal} with a device memory budget of {@code budget} bytes (0:
     * most of the free memory) and {@code pools} of pinned host memory, or empty, having said once
     * why, when the machine has no usable GPU or no CUDA run-time compiler to compile kernels for it.
     */
    public static Optional<GpuBackend> detect(int ordinal, long budget, HostMemoryPools pools) {
        try {
            GpuDevice device = GpuDevice.open(ordinal, budget, pools);
            LOG.info("GPU backend on {}", device.describe());
            return Optional.of(new GpuBackend(device));
        } catch (MissingCompilerException e) {
            LOG.warn("a GPU is here but its kernels cannot be compiled: {}; running on the CPU backend", e.getMessage());
            return Optional.empty();
        } catch (GpuException e) {
            LOG.info("no usable GPU ({}): running on the CPU backend", e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The planner for this device and the tables of {@code catalog}: its profile (or {@code profile},
     * when one is named), its memory budget, its column cache's residency.
     */
    public GpuPlanner planner(DeviceProfile profile, Catalog catalog) {
        return new GpuPlanner(profile, device.memory().budget(), cache::isResident, conflicts, catalog);
    }

    /** The planner for this device as detected. */
    public GpuPlanner planner(Catalog catalog) {
        return planner(device.profile(), catalog);
    }

    @Override
    public Optional<Batch> aggregate(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
        GpuPipelinePlan p = (GpuPipelinePlan) plan;
        return runOnDevice(new StarAggregateRun(device, cache, p.pipeline(), p.clones(), p.havingOver(inputs), p.order(),
                p.programOver(inputs), p.expectedGroups(), ctx.settings().oversizedJoin()), inputs, ctx);
    }

    @Override
    public Optional<SharedPart> share(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
        GpuPipelinePlan p = (GpuPipelinePlan) plan;
        StarPipeline pipeline = p.pipeline();
        Map<Integer, PlanNode> sharedBuilds = new TreeMap<>();
        for (int d : p.sharedTables()) {
            sharedBuilds.put(d, p.input(d));
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
                // Busy with another query's pipeline: the CPU workers take every chunk rather than
                // wait. Busy with one of this query's (a build side it runs meanwhile): that one ends
                // within the query's own work, so this one waits its turn, as a pipeline alone does.
                if (!lock.tryLock()) {
                    if (holder != ctx) {
                        LOG.debug("GPU busy: the CPU workers run the shared pipeline alone");
                        return Optional.empty();
                    }
                    lock.lock();
                }
                return holding(ctx, () -> runOnDevice(new SharedAggregateRun(device, cache, pipeline, p.clones(),
                        ctx.settings().oversizedJoin(), morsels, new SharedTables(sharedBuilds, tables)), inputs, ctx));
            }
        });
    }

    @Override
    public Optional<Batch> rows(PlanNode top, DevicePlan plan, DeviceInputs inputs, BitSet needed, QueryContext ctx) {
        GpuPipelinePlan p = (GpuPipelinePlan) plan;
        return runOnDevice(new StarRowsRun(device, cache, p.pipeline(), p.rowOrder(), p.rowSort(), needed,
                ctx.settings().oversizedJoin()),
                inputs, ctx);
    }

    @Override
    public Optional<int[]> sort(SortNode node, Batch rows, DevicePlan plan, QueryContext ctx) {
        lock.lock();
        return holding(ctx, () -> orHandedBack("GPU sort", () -> {
            ctx.checkCancelled();
            int[] order = HostRowsSort.order(device, node, rows);
            sorts.incrementAndGet();
            return Optional.of(order);
        }));
    }

    /** Runs a pipeline alone on the device; a pipeline handed back, a GPU failure or lack of memory gives empty (the CPU's turn). */
    private <R> Optional<R> runOnDevice(PipelineRun<R> run, DeviceInputs inputs, QueryContext ctx) {
        lock.lock();
        return holding(ctx, () -> runLocked(run, inputs, ctx));
    }

    /** Runs {@code work} for {@code ctx}'s query with {@link #lock}, which the caller took, then releases it. */
    private <R> R holding(QueryContext ctx, java.util.function.Supplier<R> work) {
        QueryContext outer = holder;
        holder = ctx;
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            holder = outer;
            if (outer == null) {
                busyNanos.addAndGet(System.nanoTime() - start);
            }
            lock.unlock();
        }
    }

    private <R> Optional<R> runLocked(PipelineRun<R> run, DeviceInputs inputs, QueryContext ctx) {
        Optional<R> answered = orHandedBack("GPU pipeline", () -> {
            ctx.checkCancelled();
            Optional<R> result = run.run(inputs);
            RunStats stats = run.stats();
            lastRun = stats;
            if (stats != null) {
                ctx.profile().deviceRun(stats.describe(device.profile().deviceBytesPerSecond(), inputs.buildMillis()));
            }
            if (result.isPresent()) {
                runs.incrementAndGet();
                if (stats != null && stats.streamed()) {
                    streamedRuns.incrementAndGet();
                }
            } else {
                LOG.info("GPU pipeline handed to the CPU: {}", run.declined());
            }
            return result;
        });
        if (answered.isEmpty()) {
            handedBack.incrementAndGet();
        }
        return answered;
    }

    /**
     * {@code work}'s answer, or empty (the CPU's turn) when the device has no memory left for it or
     * fails; {@code what} names it in the log.
     */
    private static <R> Optional<R> orHandedBack(String what, java.util.function.Supplier<Optional<R>> work) {
        try {
            return work.get();
        } catch (GpuOutOfMemoryException e) {
            LOG.info("{} handed to the CPU: {}", what, e.getMessage());
            return Optional.empty();
        } catch (GpuException e) {
            LOG.warn("{} failed, running it on the CPU: {}", what, e.getMessage());
            return Optional.empty();
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

    /**
     * An append to {@code base} written into device memory as its rows come, when the table is kept
     * resident and such appends are on ({@link #keepAppendsOnDevice}); null otherwise. Not under the
     * GPU lock: queries go on beside it.
     */
    public ResidentAppend appending(Table base) {
        return appendsOnDevice ? ResidentAppend.begin(cache, device, base) : null;
    }

    /**
     * Turns appends written into resident tables' device memory on or off; off, the first query
     * after an append uploads the table again. Off by default: GpuResidentAppendTest passes on the
     * H100, but the ingest rate with it on was measured only through the persistent kernel, which
     * cost 1.1 ms a batch at small batches (docs/BENCHMARKS.md), not yet through the copies
     * AppendPath now takes.
     */
    public void keepAppendsOnDevice(boolean on) {
        appendsOnDevice = on;
    }

    /** Lets a resident table's columns be evicted again. */
    public void releaseResident(String table) {
        cache.release(table);
    }

    /** How many pipelines the GPU has answered. */
    public long runs() {
        return runs.get();
    }

    /** How many sorts of rows that reached them on the host the GPU has ordered. */
    public long sorts() {
        return sorts.get();
    }

    /** Seconds queries have held the device so far (its rate over time: how busy the GPU was). */
    public double busySeconds() {
        return busyNanos.get() / 1e9;
    }

    /** How many pipelines placed on the GPU it handed to the CPU instead of answering. */
    public long handedBack() {
        return handedBack.get();
    }

    /** How many of the pipelines the GPU answered streamed their fact columns through device buffers. */
    public long streamedRuns() {
        return streamedRuns.get();
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
