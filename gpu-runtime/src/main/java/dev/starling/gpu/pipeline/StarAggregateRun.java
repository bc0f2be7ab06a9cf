package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.BuildRunner;
import dev.starling.exec.accel.Settings.OversizedJoin;
import dev.starling.exec.op.AggregateStates;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.DataType;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * Runs a compiled {@link StarPipeline} on the GPU: builds the dimensions on the CPU, lays out the
 * dense group ids, uploads the program, descriptors and dimension arrays next to the resident fact
 * columns, runs the fused kernel and turns the aggregate states into the aggregation's rows. Empty
 * when the kernel hands the work back (an overflow or division by zero, which the CPU then
 * reports exactly as it would have) or the groups are too many for dense ids.
 */
public final class StarAggregateRun extends PipelineRun {
    /** Dense group ids beyond this would mostly be empty slots: such pipelines stay on the CPU for now. */
    static final long MAX_GROUPS = 1 << 24;
    /** Aggregates live in shared memory up to this many bytes per block, so several blocks fit per SM. */
    static final long SHARED_BYTES = 32 << 10;
    private static final String SOURCE = "star_pipeline";
    private final CloneChoice clones;

    /** {@code clones}: whether the grouped counts, or a probed dimension, go through a clone layout, and which. */
    public StarAggregateRun(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, CloneChoice clones,
                            OversizedJoin oversized) {
        super(device, cache, pipeline, oversized);
        this.clones = clones;
    }

    @Override
    public Optional<Batch> run(BuildRunner builds) {
        long t0 = System.nanoTime();
        List<Batch> dimRows = PipelineInputs.buildDimensions(pipeline, builds);
        long t1 = System.nanoTime();
        Map<Integer, PipelineInputs.Referenced> referenced;
        try {
            referenced = PipelineInputs.referencedKeys(pipeline, builds);
        } catch (Unsupported e) {
            declined = e.getMessage();
            return Optional.empty();
        }
        GroupLayout layout = new GroupLayout(pipeline, dimRows, c -> referenced.get(c).key());
        int slots = pipeline.slots().size();
        if (layout.groups() > MAX_GROUPS || layout.groups() * slots * 16 > Math.min(Integer.MAX_VALUE, device.memory().budget() / 4)) {
            declined = layout.groups() + " dense groups (" + layout + ")";
            return Optional.empty();
        }
        int groups = (int) layout.groups();
        long t2 = System.nanoTime();
        try (PipelineInputs in = PipelineInputs.upload(device, cache, pipeline, dimRows, referenced,
                (d, r) -> (int) layout.contribution(d, r), oversized, (long) groups * slots * 16)) {
            long t3 = System.nanoTime();
            long[] constantValues = layout.constants();
            DeviceArrays arrays = in.arrays();
            DeviceBuffer constants = arrays.upload(constantValues, "constants");
            DeviceBuffer status = arrays.upload(new int[] {0}, "status");
            DeviceBuffer acc = arrays.allocate((long) groups * slots * 16, "aggregate states");
            StarKernelInput.Clones counters = clones.used() && clones.mode() == AccessMode.WRITE && groups > 1
                    ? in.leaseCloneLayout(cache, clones.factColumn(), 0, clones.spec()) : null;
            if (counters == null && groups > StarKernelInput.WARP_GROUPS && CloneChoice.countsOnly(pipeline)
                    && (long) groups * slots * 4 <= SHARED_BYTES) {
                counters = StarKernelInput.Clones.perGroup(groups);
            }
            StarKernelInput.Accumulators mode = counters != null ? StarKernelInput.Accumulators.COUNTERS
                    : groups == 1 ? StarKernelInput.Accumulators.SCALAR
                    : (long) groups * slots * 16 > SHARED_BYTES ? StarKernelInput.Accumulators.GLOBAL
                    : groups <= StarKernelInput.WARP_GROUPS ? StarKernelInput.Accumulators.WARP_GROUPED
                    : StarKernelInput.Accumulators.SHARED;
            long accBytes = switch (mode) {
                case SHARED, WARP_GROUPED -> (long) groups * slots * 16;
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
            StarKernelInput input = new StarKernelInput(pipeline.code(), constantValues.length, in.fact(), in.keys(),
                    dims, in.dimColumns(), pipeline.slots(), List.of(), mode, counters, constants.address(),
                    status.address(), acc.address(), pipeline.fact().rowCount(), groups);
            StarKernelLauncher.Kernel kernel = StarKernelLauncher.compile(device, input);
            long t4 = System.nanoTime();
            initAccumulators(input, acc, arrays);
            float millis = StarKernelLauncher.launch(device, kernel, input, (int) StarKernelInput.sharedBytes(dims, accBytes));
            long t5 = System.nanoTime();
            int[] statusValue = new int[1];
            status.download(Pointer.to(statusValue), 4);
            Optional<Batch> result = statusValue[0] != 0 ? Optional.empty()
                    : Optional.of(decode(acc, groups, slots, layout));
            if (statusValue[0] != 0) {
                declined = "the kernel met " + describeStatus(statusValue[0]);
            }
            long t6 = System.nanoTime();
            stats = new RunStats(ms(t1 - t0), ms(t2 - t1 + t4 - t3), ms(t3 - t2), millis, ms(t6 - t5), in.placeMillis(),
                    in.factBytes(), in.uploadedBytes(), groups, in.hostTableBytes(), in.partitionedJoins(), in.spilledBytes());
            return result;
        } catch (Unsupported e) {
            declined = e.getMessage();
            return Optional.empty();
        }
    }


    /** Sets every aggregate word to its slot's identity (the kernel's atomics fold into them). */
    private void initAccumulators(StarKernelInput input, DeviceBuffer acc, DeviceArrays arrays) {
        device.makeCurrent();
        long states = input.groups() * input.slots().size();
        ByteBuffer kinds = DeviceArrays.buffer(16L * input.slots().size());
        for (StarPipeline.Slot s : input.slots()) {
            kinds.putInt(s.kind().ordinal()).putInt(s.register()).putInt(s.filter()).putInt(0);
        }
        DeviceBuffer slotTable = arrays.upload(kinds.flip(), "aggregate slots");
        CUfunction init = device.kernel(SOURCE, "init_accumulators");
        int threads = StarKernelLauncher.THREADS;
        int initBlocks = (int) Math.min((states + threads - 1) / threads, device.multiprocessors() * 32L);
        Cuda.check(JCudaDriver.cuLaunchKernel(init, Math.max(1, initBlocks), 1, 1, threads, 1, 1, 0, null,
                Pointer.to(Pointer.to(acc.pointer()), Pointer.to(slotTable.pointer()),
                        Pointer.to(new int[] {input.slots().size()}), Pointer.to(new int[] {(int) input.groups()})),
                null), "launch of init_accumulators");
    }

    private Batch decode(DeviceBuffer acc, int groups, int nslots, GroupLayout layout) {
        ByteBuffer bytes = DeviceArrays.buffer((long) groups * nslots * 16);
        acc.download(Pointer.to(bytes), bytes.limit());
        LongBuffer words = bytes.asLongBuffer();
        boolean scalar = pipeline.keys().isEmpty();
        long[] ids = java.util.stream.LongStream.range(0, groups)
                .filter(g -> scalar || words.get((int) (g * 2)) != 0).toArray();
        int n = ids.length;
        Vector[] keys = layout.keyColumns(ids);
        List<AggCall> calls = pipeline.aggregate().calls();
        Vector[] out = new Vector[keys.length + calls.size()];
        System.arraycopy(keys, 0, out, 0, keys.length);
        for (int c = 0; c < calls.size(); c++) {
            AggCall call = calls.get(c);
            StarPipeline.CallStates states = pipeline.calls().get(c);
            long[] counts = new long[n];
            long[] longs = new long[n];
            double[] doubles = new double[n];
            for (int i = 0; i < n; i++) {
                counts[i] = words.get(wordIndex(states.countSlot(), ids[i], groups));
                if (states.valueSlot() >= 0) {
                    int w = wordIndex(states.valueSlot(), ids[i], groups);
                    AggKind kind = pipeline.slots().get(states.valueSlot()).kind();
                    long lo = words.get(w);
                    if (kind == AggKind.SUM_I && words.get(w + 1) != (lo >> 63)) {
                        throw new ArithmeticException("SUM overflow: the sum exceeds the 64-bit range of " + call.type());
                    }
                    longs[i] = lo;
                    doubles[i] = Double.longBitsToDouble(lo);
                }
            }
            DataType argType = call.argument() < 0 ? null : pipeline.aggregate().input().output().get(call.argument()).type();
            out[keys.length + c] = AggregateStates.result(call, argType, counts, longs, doubles, n);
        }
        return new Batch(out, n);
    }

    private static int wordIndex(int slot, long group, int groups) {
        return (int) (((long) slot * groups + group) * 2);
    }

    private static String describeStatus(int status) {
        List<String> what = new ArrayList<>();
        if ((status & 1) != 0) {
            what.add("a 64-bit overflow");
        }
        if ((status & 2) != 0) {
            what.add("a division by zero");
        }
        if ((status & 4) != 0) {
            what.add("a key outside its dense range");
        }
        return String.join(" and ", what);
    }
}
