package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.BuildRunner;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.op.AggregateStates;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cache.DeviceColumn;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.Column;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * Runs a compiled {@link StarPipeline} on the GPU: builds the dimensions on the CPU, lays out the
 * dense group ids, uploads the program, descriptors and dimension arrays next to the resident fact
 * columns, runs the fused kernel and turns the aggregate states into the aggregation's rows. Empty
 * when the kernel hands the work back (an overflow or division by zero, which the CPU then
 * reports exactly as it would have) or the groups are too many for dense ids.
 */
public final class StarAggregateRun {
    /** Dense group ids beyond this would mostly be empty slots: such pipelines stay on the CPU for now. */
    static final long MAX_GROUPS = 1 << 24;
    /** Aggregates live in shared memory up to this many bytes per block, so several blocks fit per SM. */
    static final long SHARED_BYTES = 32 << 10;
    private static final int THREADS = 256;
    /**
     * Past this many registers a thread, fewer than two blocks of {@link #THREADS} fit an SM (a
     * quarter of its warps): the kernel is generated again with fewer rows per thread.
     */
    private static final int MAX_REGISTERS_PER_THREAD = 128;
    private static final String SOURCE = "star_pipeline";

    private final GpuDevice device;
    private final GpuColumnCache cache;
    private final StarPipeline pipeline;
    private String declined = "";
    /** CPU time spent computing the group layout and the dimension arrays, between copies. */
    private long prepareNanos;
    private RunStats stats;

    public StarAggregateRun(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline) {
        this.device = device;
        this.cache = cache;
        this.pipeline = pipeline;
    }

    /** Why the last {@link #run} returned empty. */
    public String declined() {
        return declined;
    }

    public RunStats stats() {
        return stats;
    }

    public Optional<Batch> run(BuildRunner builds) {
        long t0 = System.nanoTime();
        List<Batch> dimRows = new ArrayList<>();
        for (StarPipeline.Dimension d : pipeline.dimensions()) {
            BitSet all = new BitSet();
            all.set(0, d.build().output().size());
            dimRows.add(builds.materialize(d.build(), all));
        }
        long t1 = System.nanoTime();
        Map<Integer, Referenced> referenced = new HashMap<>();
        for (StarPipeline.GroupKey key : pipeline.keys()) {
            if (key.referenced()) {
                referenced.put(key.factColumn(), referenced(key.factColumn(), builds));
            }
        }
        for (int c : pipeline.keyColumns()) {
            referenced.put(c, referenced(c, builds));
        }
        if (referenced.values().stream().anyMatch(r -> r.table().column(r.column()).isDenseCoded())) {
            declined = "a foreign key refers to a key that is itself a foreign key";
            return Optional.empty();
        }
        GroupLayout layout = new GroupLayout(pipeline, dimRows, c -> referenced.get(c).key());
        prepareNanos = System.nanoTime() - t1;
        int slots = pipeline.slots().size();
        if (layout.groups() > MAX_GROUPS || layout.groups() * slots * 16 > Math.min(Integer.MAX_VALUE, device.memory().budget() / 4)) {
            declined = layout.groups() + " dense groups (" + layout + ")";
            return Optional.empty();
        }
        int groups = (int) layout.groups();
        List<GpuColumnCache.Lease> leases = new ArrayList<>();
        long residentBefore = cache.residentBytes();
        try (DeviceArrays arrays = new DeviceArrays(device.memory())) {
            long factBytes = 0;
            List<StarKernelInput.Column> fact = new ArrayList<>();
            for (int c : pipeline.factColumns()) {
                GpuColumnCache.Lease lease = cache.lease(pipeline.fact(), c);
                leases.add(lease);
                DeviceColumn dc = lease.column();
                factBytes += dc.bytes();
                fact.add(new StarKernelInput.Column(dc.values().address(), dc.nulls() == null ? 0 : dc.nulls().address(),
                        dc.width()));
            }
            List<StarKernelInput.Key> keys = new ArrayList<>();
            for (int c : pipeline.keyColumns()) {
                Referenced r = referenced.get(c);
                GpuColumnCache.Lease lease = cache.lease(r.table(), r.column());
                leases.add(lease);
                keys.add(new StarKernelInput.Key(lease.column().values().address(), lease.column().width(),
                        r.table().rowCount()));
            }
            long uploaded = cache.residentBytes() - residentBefore;
            List<StarKernelInput.Dimension> dims = new ArrayList<>();
            for (int d = 0; d < pipeline.dimensions().size(); d++) {
                int[] contribution = contributions(d, dimRows.get(d), layout);
                DeviceBuffer b = arrays.upload(contribution, "dimension " + d + " group contributions");
                uploaded += b.bytes();
                if (!pipeline.dimensions().get(d).hashed()) {
                    dims.add(new StarKernelInput.Dimension(b.address(), contribution.length));
                    continue;
                }
                Batch rows = dimRows.get(d);
                Optional<DimensionHashTable> table = DimensionHashTable.build(rows.column(0), rows.rows());
                if (table.isEmpty()) {
                    declined = "the build side of hash join " + d + " has duplicate keys";
                    return Optional.empty();
                }
                DeviceBuffer t = arrays.upload(table.get().slots(), "dimension " + d + " hash table");
                uploaded += t.bytes();
                dims.add(new StarKernelInput.Dimension(b.address(), contribution.length, t.address(), table.get().shift()));
            }
            List<StarKernelInput.Column> dimColumns = new ArrayList<>();
            for (StarPipeline.DimColumn dc : pipeline.dimColumns()) {
                Batch rows = dimRows.get(dc.dimension());
                StarKernelInput.Column column = dimColumn(dc, rows, arrays);
                uploaded += (long) positions(dc.dimension(), rows) * (column.width() + (column.nullable() ? 1 : 0));
                dimColumns.add(column);
            }
            long[] constantValues = layout.constants();
            DeviceBuffer constants = arrays.upload(constantValues, "constants");
            DeviceBuffer status = arrays.upload(new int[] {0}, "status");
            DeviceBuffer acc = arrays.allocate((long) groups * slots * 16, "aggregate states");
            StarKernelInput.Accumulators mode = groups == 1 ? StarKernelInput.Accumulators.SCALAR
                    : (long) groups * slots * 16 > SHARED_BYTES ? StarKernelInput.Accumulators.GLOBAL
                    : groups <= StarKernelInput.WARP_GROUPS ? StarKernelInput.Accumulators.WARP_GROUPED
                    : StarKernelInput.Accumulators.SHARED;
            StarKernelInput input = new StarKernelInput(pipeline.code(), constantValues.length, fact, keys, dims, dimColumns,
                    pipeline.slots(), mode, constants.address(), status.address(), acc.address(),
                    pipeline.fact().rowCount(), groups);
            long compileStart = System.nanoTime();
            int items = 0;
            CUfunction kernel = null;
            for (int i = 0; i < StarKernelPtx.ITEMS.length && kernel == null; i++) {
                items = StarKernelPtx.ITEMS[i];
                CUfunction f = device.compiled(StarKernelPtx.generate(input, items), StarKernelPtx.ENTRY);
                if (device.registers(f) <= MAX_REGISTERS_PER_THREAD || i == StarKernelPtx.ITEMS.length - 1) {
                    kernel = f;
                }
            }
            prepareNanos += System.nanoTime() - compileStart;
            float[] millis = new float[1];
            long t3 = System.nanoTime();
            launch(kernel, input, items, acc, arrays, millis);
            long t4 = System.nanoTime();
            int[] statusValue = new int[1];
            status.download(Pointer.to(statusValue), 4);
            Optional<Batch> result = statusValue[0] != 0 ? Optional.empty()
                    : Optional.of(decode(acc, groups, slots, layout));
            if (statusValue[0] != 0) {
                declined = "the kernel met " + describeStatus(statusValue[0]);
            }
            long t5 = System.nanoTime();
            stats = new RunStats(ms(t1 - t0), ms(prepareNanos), ms(t3 - t1 - prepareNanos), millis[0], ms(t5 - t4),
                    factBytes, uploaded, groups);
            return result;
        } finally {
            leases.forEach(GpuColumnCache.Lease::close);
        }
    }

    /** The key column (of table {@code table}) that a foreign key's codes point into. */
    private record Referenced(Table table, int column) {
        Column key() {
            return table.column(column);
        }
    }

    private Referenced referenced(int factColumn, BuildRunner builds) {
        Column.DenseReference reference = pipeline.fact().column(factColumn).denseReference();
        Table table = builds.table(reference.table());
        return new Referenced(table, table.schema().indexOf(reference.keyColumn()));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private int[] contributions(int d, Batch rows, GroupLayout layout) {
        long start = System.nanoTime();
        try {
            return contributionsByCode(d, rows, layout);
        } finally {
            prepareNanos += System.nanoTime() - start;
        }
    }

    private int[] contributionsByCode(int d, Batch rows, GroupLayout layout) {
        int[] out = new int[positions(d, rows)];
        java.util.Arrays.fill(out, -1);
        for (int r = 0; r < rows.rows(); r++) {
            out[position(d, rows, r)] = (int) layout.contribution(d, r);
        }
        return out;
    }

    /** How many positions dimension {@code d}'s arrays have: one per code (dense) or per built row (hashed). */
    private int positions(int d, Batch rows) {
        StarPipeline.Dimension dim = pipeline.dimensions().get(d);
        return dim.hashed() ? rows.rows() : Math.toIntExact(dim.range());
    }

    /** Where built row {@code r} of dimension {@code d} sits in its arrays: at its code (dense) or its own index (hashed). */
    private int position(int d, Batch rows, int r) {
        StarPipeline.Dimension dim = pipeline.dimensions().get(d);
        return dim.hashed() ? r : (int) rows.column(dim.keyColumn()).longs()[r];
    }

    /** Uploads a dimension column by position, as narrow as its type allows (booleans in a byte, 32-bit types in four). */
    private StarKernelInput.Column dimColumn(StarPipeline.DimColumn dc, Batch rows, DeviceArrays arrays) {
        long start = System.nanoTime();
        int d = dc.dimension();
        int range = positions(d, rows);
        Vector v = ExprCompiler.compile(dc.expr()).eval(rows);
        int width = dc.expr().type().physical().width;
        ByteBuffer values = DeviceArrays.buffer((long) range * width);
        byte[] nulls = v.nulls() == null ? null : new byte[range];
        for (int r = 0; r < rows.rows(); r++) {
            int at = position(d, rows, r) * width;
            long value = v.isDouble() ? Double.doubleToRawLongBits(v.doubles()[r]) : v.longs()[r];
            switch (width) {
                case 1 -> values.put(at, (byte) value);
                case 4 -> values.putInt(at, (int) value);
                default -> values.putLong(at, value);
            }
            if (nulls != null && v.nulls()[r]) {
                nulls[position(d, rows, r)] = 1;
            }
        }
        prepareNanos += System.nanoTime() - start;
        DeviceBuffer vb = arrays.upload(values, "dimension column");
        DeviceBuffer nb = nulls == null ? null : arrays.upload(nulls, "dimension column NULL flags");
        return new StarKernelInput.Column(vb.address(), nb == null ? 0 : nb.address(), width);
    }

    private void launch(CUfunction kernel, StarKernelInput input, int items, DeviceBuffer acc, DeviceArrays arrays,
                        float[] millis) {
        device.makeCurrent();
        long states = input.groups() * input.slots().size();
        initAccumulators(input, acc, states, arrays);
        boolean shared = input.accumulators() == StarKernelInput.Accumulators.SHARED
                || input.accumulators() == StarKernelInput.Accumulators.WARP_GROUPED;
        int sharedBytes = shared ? (int) states * 16 : 0;
        // One wave of resident blocks: a grid larger than that leaves the last wave's SMs half idle.
        int[] perSm = new int[1];
        Cuda.check(JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(perSm, kernel, THREADS, sharedBytes),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor");
        long tile = (long) THREADS * items;
        int blocks = (int) Math.max(1, Math.min((input.rows() + tile - 1) / tile,
                (long) device.multiprocessors() * Math.max(1, perSm[0])));
        List<StarKernelInput.Parameter> parameters = input.parameters();
        Pointer[] args = new Pointer[parameters.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = Pointer.to(new long[] {parameters.get(i).value()});
        }
        CUevent start = new CUevent();
        CUevent stop = new CUevent();
        Cuda.check(JCudaDriver.cuEventCreate(start, 0), "cuEventCreate");
        Cuda.check(JCudaDriver.cuEventCreate(stop, 0), "cuEventCreate");
        try {
            Cuda.check(JCudaDriver.cuEventRecord(start, null), "cuEventRecord");
            Cuda.check(JCudaDriver.cuLaunchKernel(kernel, blocks, 1, 1, THREADS, 1, 1, sharedBytes, null,
                    Pointer.to(args), null), "launch of the star pipeline kernel");
            Cuda.check(JCudaDriver.cuEventRecord(stop, null), "cuEventRecord");
            device.synchronize("star pipeline");
            Cuda.check(JCudaDriver.cuEventElapsedTime(millis, start, stop), "cuEventElapsedTime");
        } finally {
            JCudaDriver.cuEventDestroy(start);
            JCudaDriver.cuEventDestroy(stop);
        }
    }

    /** Sets every aggregate word to its slot's identity (the kernel's atomics fold into them). */
    private void initAccumulators(StarKernelInput input, DeviceBuffer acc, long states, DeviceArrays arrays) {
        ByteBuffer kinds = DeviceArrays.buffer(16L * input.slots().size());
        for (StarPipeline.Slot s : input.slots()) {
            kinds.putInt(s.kind().ordinal()).putInt(s.register()).putInt(s.filter()).putInt(0);
        }
        DeviceBuffer slotTable = arrays.upload(kinds.flip(), "aggregate slots");
        CUfunction init = device.kernel(SOURCE, "init_accumulators");
        int initBlocks = (int) Math.min((states + THREADS - 1) / THREADS, device.multiprocessors() * 32L);
        Cuda.check(JCudaDriver.cuLaunchKernel(init, Math.max(1, initBlocks), 1, 1, THREADS, 1, 1, 0, null,
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
        List<AggCall> calls = pipeline.node().calls();
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
            DataType argType = call.argument() < 0 ? null : pipeline.node().input().output().get(call.argument()).type();
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
