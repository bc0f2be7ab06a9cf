package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.exec.op.GroupStates;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.hybrid.SpillBuffer;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * A star pipeline's aggregation made ready on the GPU: the dimensions built on the CPU, the dense
 * group ids laid out, the inputs uploaded, the aggregate states set to their identities and the
 * kernel compiled; then launched over ranges of fact rows (all of them, or the batches a shared
 * run claims) and read back as the groups' states. The states live in device memory as far as the
 * budget allows, the rest in pinned host memory that the kernel's atomics update over the link (one
 * address range where the driver allows it, else all on the host): an aggregation whose states are
 * past the budget still runs on the GPU.
 */
final class AggregateKernel implements AutoCloseable {
    /** Dense group ids beyond this would mostly be empty slots: such pipelines stay on the CPU for now. */
    static final long MAX_GROUPS = 1 << 24;
    /** Aggregates live in shared memory up to this many bytes per block, so several blocks fit per SM. */
    static final long SHARED_BYTES = 32 << 10;
    private static final String SOURCE = "star_pipeline";

    private final GpuDevice device;
    private final StarPipeline pipeline;
    private final GroupLayout layout;
    private final int groups;
    private final PipelineInputs in;
    private final DeviceBuffer status;
    private final SpillBuffer states;
    private final StarKernelLauncher.Bound kernel;
    private final double buildMillis;
    private final double prepareMillis;
    private final double copyMillis;

    private AggregateKernel(GpuDevice device, StarPipeline pipeline, GroupLayout layout, PipelineInputs in,
                            DeviceBuffer status, SpillBuffer states, StarKernelLauncher.Bound kernel,
                            double buildMillis, long[] nanos) {
        this.device = device;
        this.pipeline = pipeline;
        this.layout = layout;
        this.groups = (int) layout.groups();
        this.in = in;
        this.status = status;
        this.states = states;
        this.kernel = kernel;
        this.buildMillis = buildMillis + (nanos[1] - nanos[0]) / 1e6;
        this.prepareMillis = (nanos[2] - nanos[1] + nanos[4] - nanos[3]) / 1e6;
        this.copyMillis = (nanos[3] - nanos[2]) / 1e6;
    }

    /**
     * Makes {@code pipeline}'s aggregation ready; {@code clones}: whether the grouped counts, or a
     * probed dimension, go through a clone layout, and which; {@code shared}: the hash tables it
     * builds in host memory for the CPU workers too. Throws {@link Unsupported}, having
     * freed what it took, when the pipeline must run on the CPU after all (too many groups, a
     * foreign key the kernel cannot follow, repeated keys on a hash join's build side).
     */
    static AggregateKernel prepare(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, CloneChoice clones,
                                   OversizedJoin oversized, DeviceInputs inputs, SharedTables shared)
            throws Unsupported {
        long[] nanos = new long[5];
        nanos[0] = System.nanoTime();
        List<Batch> dimRows = PipelineInputs.dimensionRows(pipeline, inputs, shared);
        nanos[1] = System.nanoTime();
        Map<Integer, PipelineInputs.Referenced> referenced = PipelineInputs.referencedKeys(pipeline, inputs);
        GroupLayout layout = new GroupLayout(pipeline, dimRows, c -> referenced.get(c).key());
        int slots = pipeline.slots().size();
        long stateBytes = layout.groups() * slots * 16;
        if (layout.groups() > MAX_GROUPS || stateBytes > Integer.MAX_VALUE) {
            throw new Unsupported(layout.groups() + " dense groups (" + layout + ")");
        }
        int groups = (int) layout.groups();
        nanos[2] = System.nanoTime();
        PipelineInputs in = PipelineInputs.upload(device, cache, pipeline, dimRows, referenced,
                (d, r) -> (int) layout.contribution(d, r), oversized, stateBytes, shared);
        SpillBuffer states = null;
        try {
            nanos[3] = System.nanoTime();
            long[] constantValues = layout.constants();
            DeviceArrays arrays = in.arrays();
            DeviceBuffer constants = arrays.upload(constantValues, "constants");
            DeviceBuffer status = arrays.upload(new int[] {0}, "status");
            DeviceBuffer identities = identities(arrays, pipeline.slots());
            StarKernelInput.Clones counters = clones.used() && clones.mode() == AccessMode.WRITE && groups > 1
                    ? in.leaseCloneLayout(cache, clones.factColumn(), 0, clones.spec()) : null;
            if (counters == null && groups > StarKernelInput.WARP_GROUPS && CloneChoice.countsOnly(pipeline)
                    && (long) groups * slots * 4 <= SHARED_BYTES) {
                counters = StarKernelInput.Clones.perGroup(groups);
            }
            StarKernelInput.Accumulators mode = counters != null ? StarKernelInput.Accumulators.COUNTERS
                    : groups == 1 ? StarKernelInput.Accumulators.SCALAR
                    : stateBytes > SHARED_BYTES ? StarKernelInput.Accumulators.GLOBAL
                    : groups <= StarKernelInput.WARP_GROUPS ? StarKernelInput.Accumulators.WARP_GROUPED
                    : StarKernelInput.Accumulators.SHARED;
            long accBytes = switch (mode) {
                case SHARED, WARP_GROUPED -> stateBytes;
                case COUNTERS -> counters.sharedBytes(slots);
                default -> 0;
            };
            List<StarKernelInput.Dimension> dims = new ArrayList<>(in.dims());
            if (clones.used() && clones.mode() == AccessMode.READ) {
                StarKernelInput.Dimension probed = dims.get(clones.dimension());
                dims.set(clones.dimension(), probed.withClones(
                        in.leaseCloneLayout(cache, clones.factColumn(), probed.range(), clones.spec())));
            }
            dims = StarKernelInput.stage(dims, accBytes);
            // last, so that they take what device memory the inputs left and spill only the rest
            states = SpillBuffer.allocate(device, stateBytes, device.memory().available(stateBytes), "aggregate states");
            StarKernelInput input = new StarKernelInput(pipeline.code(), constantValues.length, in.fact(), in.keys(),
                    dims, in.dimColumns(), pipeline.slots(), List.of(), mode, counters, constants.address(),
                    status.address(), states.address(), pipeline.fact().rowCount(), groups);
            StarKernelLauncher.Bound kernel = new StarKernelLauncher.Bound(device, StarKernelLauncher.compile(device, input),
                    input, (int) StarKernelInput.sharedBytes(dims, accBytes));
            nanos[4] = System.nanoTime();
            initStates(device, states.address(), identities, slots, groups);
            return new AggregateKernel(device, pipeline, layout, in, status, states, kernel, inputs.buildMillis(),
                    nanos);
        } catch (RuntimeException e) {
            if (states != null) {
                states.close();
            }
            in.close();
            throw e;
        }
    }

    /** Each slot's identity, the low word its states start with. */
    private static DeviceBuffer identities(DeviceArrays arrays, List<StarPipeline.Slot> slots) {
        ByteBuffer words = DeviceArrays.buffer(8L * slots.size());
        for (StarPipeline.Slot s : slots) {
            words.putLong(s.kind().identity());
        }
        return arrays.upload(words.flip(), "aggregate identities");
    }

    /** Sets every aggregate word to its slot's identity (the kernel's atomics fold into them), and waits for it. */
    private static void initStates(GpuDevice device, long states, DeviceBuffer identities, int slots, int groups) {
        device.makeCurrent();
        CUfunction init = device.kernel(SOURCE, "init_accumulators");
        int threads = StarKernelLauncher.THREADS;
        long words = (long) groups * slots;
        int blocks = (int) Math.min((words + threads - 1) / threads, device.multiprocessors() * 32L);
        Cuda.check(JCudaDriver.cuLaunchKernel(init, Math.max(1, blocks), 1, 1, threads, 1, 1, 0, null,
                Pointer.to(Pointer.to(new long[] {states}), Pointer.to(identities.pointer()),
                        Pointer.to(new int[] {slots}), Pointer.to(new int[] {groups})),
                null), "launch of init_accumulators");
        device.synchronize("init_accumulators");
    }

    /** The kernel, to be launched over ranges of fact rows. */
    StarKernelLauncher.Bound kernel() {
        return kernel;
    }

    /** Whether the kernel met a case it leaves to the CPU, and which (empty: none). */
    String handedBack() {
        int[] value = new int[1];
        status.download(Pointer.to(value), 4);
        return KernelStatus.describe(value[0]);
    }

    /** The states of the groups the launched rows reached (every group of a query without GROUP BY). */
    GroupStates states() {
        int slots = pipeline.slots().size();
        ByteBuffer bytes = DeviceArrays.buffer((long) groups * slots * 16);
        states.download(Pointer.to(bytes), bytes.limit());
        LongBuffer words = bytes.asLongBuffer();
        boolean scalar = pipeline.keys().isEmpty();
        long[] ids = java.util.stream.LongStream.range(0, groups)
                .filter(g -> scalar || words.get((int) (g * 2)) != 0).toArray();
        int n = ids.length;
        Vector[] keys = layout.keyColumns(ids);
        List<AggCall> calls = pipeline.aggregate().calls();
        List<GroupStates.CallStates> out = new ArrayList<>();
        for (int c = 0; c < calls.size(); c++) {
            StarPipeline.CallStates call = pipeline.calls().get(c);
            long[] counts = new long[n];
            long[] longs = new long[n];
            double[] doubles = new double[n];
            for (int i = 0; i < n; i++) {
                counts[i] = words.get(wordIndex(call.countSlot(), ids[i]));
                if (call.valueSlot() >= 0) {
                    int w = wordIndex(call.valueSlot(), ids[i]);
                    long lo = words.get(w);
                    if (pipeline.slots().get(call.valueSlot()).kind() == AggKind.SUM_I && words.get(w + 1) != (lo >> 63)) {
                        throw new ArithmeticException("SUM overflow: the sum exceeds the 64-bit range of "
                                + calls.get(c).type());
                    }
                    longs[i] = lo;
                    doubles[i] = Double.longBitsToDouble(lo);
                }
            }
            out.add(new GroupStates.CallStates(counts, longs, doubles));
        }
        return new GroupStates(keys, n, out);
    }

    private int wordIndex(int slot, long group) {
        return (int) (((long) slot * groups + group) * 2);
    }

    /** This run's times and bytes, with the kernel's and the read-back's times and the chunks the GPU ran. */
    RunStats stats(double kernelMillis, double decodeMillis, int gpuChunks) {
        return new RunStats(buildMillis, prepareMillis, copyMillis, kernelMillis, decodeMillis, in.placeMillis(),
                in.factBytes(), in.uploadedBytes(), groups, in.hostTableBytes(), in.partitionedJoins(), in.spilledBytes(),
                states.hostBytes(), gpuChunks);
    }

    @Override
    public void close() {
        try {
            states.close();
        } finally {
            in.close();
        }
    }
}
