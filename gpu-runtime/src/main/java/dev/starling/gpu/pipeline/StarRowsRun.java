package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.storage.Catalog;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * Runs a selection ({@link StarPipeline} with outputs) on the GPU: the kernel writes the rows that
 * pass the filters and probes, compacted, and they come back as one batch — fact numbers as
 * computed, fact strings as dictionary codes, dimension expressions gathered on the host from the
 * built dimension rows the kernel found (for a dimension built on the GPU, computed from its
 * table's rows there). The output room starts at {@link #FIRST_CAPACITY} rows;
 * when more pass, the kernel runs once more with room for exactly as many. With an order
 * ({@link RowOrder}), only the first rows in it come back: gathered on the device from those the
 * kernel wrote when they fit the first room, else (or from the start, where the optimizer expects
 * more rows than that room) written alone by a pass that the keys of a pass before, written at
 * each row's index, cut ({@link StarKernelInput.OrderCut}). With a sort ({@link RowSort}), the
 * rows kept are then sorted on the device and only the sort's offset and limit of them come back,
 * in its order; without device memory for that, the pipeline is handed back. Output columns the
 * plan above does not read (a sort key not selected) are neither gathered nor copied back.
 */
public final class StarRowsRun extends PipelineRun<Batch> {
    static final long FIRST_CAPACITY = 1 << 22;
    private static final String ORDER_SOURCE = "row_order";

    private final RowOrder order;
    private final RowSort sort;
    private final BitSet needed;

    /**
     * {@code order}: the order whose first rows alone come back (null: every row does);
     * {@code sort}: the order the rows come back in, and which of them (null: as the kernel wrote
     * them); {@code needed}: the output columns that come back, the others null.
     */
    public StarRowsRun(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, RowOrder order, RowSort sort,
                       BitSet needed, OversizedJoin oversized) {
        super(device, cache, pipeline, oversized);
        this.order = order;
        this.sort = sort;
        this.needed = needed;
    }

    @Override
    public Optional<Batch> run(DeviceInputs inputs) {
        long t0 = System.nanoTime();
        List<Batch> dimRows = PipelineInputs.dimensionRows(pipeline, inputs, SharedTables.NONE);
        long t1 = System.nanoTime();
        try {
            Map<Integer, PipelineInputs.Referenced> referenced = PipelineInputs.referencedKeys(pipeline, inputs);
            try (PipelineInputs in = PipelineInputs.upload(device, cache, pipeline, dimRows, referenced, (d, r) -> 0,
                    oversized, Math.min(pipeline.fact().rowCount(), FIRST_CAPACITY) * 9 * pipeline.outputs().size(),
                    SharedTables.NONE, inputs, false)) {
                long t2 = System.nanoTime();
                DeviceArrays arrays = in.arrays();
                DeviceBuffer constants = arrays.upload(pipeline.constants(), "constants");
                DeviceBuffer status = arrays.upload(new int[] {0}, "status");
                DeviceBuffer counter = arrays.allocate(8, "output row counter");
                List<StarKernelInput.Dimension> dims = StarKernelInput.stage(in.dims(), 0);
                KernelPasses pass = new KernelPasses(in, dims, constants, status);
                long capacity = Math.min(pipeline.fact().rowCount(), FIRST_CAPACITY);
                // where more rows are expected than the first room, a pass writing them would only count them: keys first
                boolean cutTried = order != null && pipeline.fact().rowCount() > FIRST_CAPACITY
                        && order.expectedRows() > FIRST_CAPACITY;
                StarKernelInput.OrderCut cut = cutTried ? pass.cut() : null;
                while (true) {
                    long passed;
                    try (DeviceArrays out = new DeviceArrays(device.memory())) {
                        counter.clear();
                        List<Written> written = outputBuffers(out, capacity);
                        pass.launch(written.stream().map(Written::output).toList(), StarKernelInput.Accumulators.ROWS, cut,
                                counter.address(), capacity);
                        declined = KernelStatus.read(status);
                        if (!declined.isEmpty()) {
                            return Optional.empty();
                        }
                        long[] count = new long[1];
                        counter.download(Pointer.to(count), 8);
                        passed = count[0];
                        if (passed <= capacity) {
                            long t3 = System.nanoTime();
                            Kept kept = cut == null ? first(written, passed, out) : new Kept(written, passed);
                            if (sort != null) {
                                try {
                                    kept = sorted(kept, out);
                                } catch (GpuOutOfMemoryException e) {
                                    declined = "no device memory to sort its rows";
                                    return Optional.empty();
                                }
                            }
                            Batch rows = decode(kept.written(), Math.toIntExact(kept.rows()), dimRows, in, inputs.catalog());
                            stats = new RunStats(inputs.buildMillis() + ms(t1 - t0), 0, ms(t2 - t1), pass.kernelMillis,
                                    ms(System.nanoTime() - t3 + pass.searchNanos), in.placeMillis(), in.factBytes(),
                                    in.uploadedBytes(), kept.rows(), in.hostTableBytes(), in.partitionedJoins(),
                                    in.spilledBytes(), 0, in.scan().chunksRead(), in.scan().describe(),
                                    in.scan().streamed());
                            return Optional.of(rows);
                        }
                    }
                    if (!cutTried && order != null) {
                        cutTried = true;
                        cut = pass.cut();
                        if (cut != null) {
                            continue;
                        }
                    }
                    capacity = passed;
                }
            }
        } catch (Unsupported e) {
            declined = e.getMessage();
            return Optional.empty();
        }
    }

    /**
     * Launches of the pipeline's kernel over its uploaded inputs, with one output or another, and
     * the time they take: the kernels' and, apart, the host's search for an order's threshold.
     */
    private final class KernelPasses {
        private final PipelineInputs in;
        private final List<StarKernelInput.Dimension> dims;
        private final DeviceBuffer constants;
        private final DeviceBuffer status;
        private float kernelMillis;
        private long searchNanos;

        KernelPasses(PipelineInputs in, List<StarKernelInput.Dimension> dims, DeviceBuffer constants, DeviceBuffer status) {
            this.in = in;
            this.dims = dims;
            this.constants = constants;
            this.status = status;
        }

        /** Runs the kernel over the fact rows the scan reads. */
        void launch(List<StarKernelInput.Output> outputs, StarKernelInput.Accumulators mode, StarKernelInput.OrderCut cut,
                    long counter, long capacity) {
            StarKernelInput input = new StarKernelInput(pipeline.code(), pipeline.constants().length, in.fact(),
                    in.keys(), in.answers(), dims, in.dimColumns(), List.of(), outputs, mode, null, null, List.of(), null,
                    cut, constants.address(), status.address(), counter, pipeline.fact().rowCount(), capacity);
            StarKernelLauncher.Bound kernel = new StarKernelLauncher.Bound(device, StarKernelLauncher.compile(device, input),
                    input, (int) StarKernelInput.sharedBytes(dims, 0));
            kernelMillis += StarKernelLauncher.time(device, () -> in.scan().run(kernel));
        }

        /**
         * The order's cut, for a pass that is to write only the first rows: each passing row's order
         * key written at its row index (the {@link StarKernelInput.Accumulators#ORDER_KEYS} pass;
         * a row that fails leaves the 0 written before, the least key, which a threshold found
         * above it never lets through), then the key the first {@code order.count()} of them reach
         * found from those ({@link KeyThreshold}). Null where the cut does not pay (a quarter of
         * the rows or more wanted, or fewer rows passing than wanted), or without device memory
         * for the keys: the next pass then writes every row. A status this pass sets shows in the
         * next pass's.
         */
        StarKernelInput.OrderCut cut() {
            long n = pipeline.fact().rowCount();
            if (!KeyThreshold.pays(order.count(), n)) {
                return null;
            }
            int register = ((StarPipeline.Output.Value) pipeline.outputs().get(order.output())).register();
            StarKernelInput.OrderCut cut = new StarKernelInput.OrderCut(register, order.descending(), order.floating(), 0);
            try (DeviceArrays scratch = new DeviceArrays(device.memory())) {
                DeviceBuffer keys = scratch.allocate(n * 8, "row order keys");
                keys.clear();
                launch(List.of(new StarKernelInput.Output(register, keys.address(), 0, 8)),
                        StarKernelInput.Accumulators.ORDER_KEYS, cut, 0, n);
                long t = System.nanoTime();
                long threshold = KeyThreshold.onDevice(device, scratch, keys, n, order.count(), 0);
                searchNanos += System.nanoTime() - t;
                return threshold == Long.MIN_VALUE ? null : cut.withThreshold(threshold ^ Long.MIN_VALUE);
            } catch (GpuOutOfMemoryException e) {
                return null;
            }
        }
    }

    /** Output column {@code column}, which the kernel writes as {@code output}, and its buffers. */
    private record Written(int column, StarKernelInput.Output output, DeviceBuffer values, DeviceBuffer nulls) { }

    /** The rows that come back: {@code rows} of them in each output's buffers. */
    private record Kept(List<Written> written, long rows) { }

    /**
     * The kernel's {@code n} rows, or, where the order's cut pays ({@link KeyThreshold}), only
     * those whose order key reaches the threshold, gathered into buffers of {@code out}: each
     * row's key ({@code row_order_keys}), the key bytes counted over them a few times
     * ({@code key_bytes}), the rows kept found ({@code keep_rows}) and each output gathered
     * ({@code gather_rows}). Without device memory for the keys, every row comes back.
     */
    private Kept first(List<Written> written, long n, DeviceArrays out) {
        if (order == null || !KeyThreshold.pays(order.count(), n)) {
            return new Kept(written, n);
        }
        DeviceBuffer values = of(written, order.output()).values();
        try {
            DeviceBuffer keys = out.allocate(n * 8, "row order keys");
            GridLaunch.run(device, ORDER_SOURCE, "row_order_keys", n, Pointer.to(values.pointer()),
                    Pointer.to(new long[] {n}),
                    Pointer.to(new int[] {order.descending() ? 1 : 0}), Pointer.to(new int[] {order.floating() ? 1 : 0}),
                    Pointer.to(keys.pointer()));
            long threshold = KeyThreshold.onDevice(device, out, keys, n, order.count(), 0);
            if (threshold == Long.MIN_VALUE) {
                return new Kept(written, n);
            }
            DeviceBuffer counter = out.allocate(8, "kept row counter");
            counter.clear();
            DeviceBuffer kept = out.allocate(n * 8, "kept rows");
            GridLaunch.run(device, ORDER_SOURCE, "keep_rows", n, Pointer.to(keys.pointer()), Pointer.to(new long[] {n}),
                    Pointer.to(new long[] {threshold ^ Long.MIN_VALUE}), Pointer.to(counter.pointer()),
                    Pointer.to(kept.pointer()));
            long[] m = new long[1];
            counter.download(Pointer.to(m), 8);
            BitSet keep = (BitSet) needed.clone();
            if (sort != null) {
                sort.keys().forEach(k -> keep.set(k.output()));
            }
            return gather(written, kept.pointer(), m[0], keep, out);
        } catch (GpuOutOfMemoryException e) {
            return new Kept(written, n);
        }
    }

    /**
     * The kept rows in the sort's order, and of those only its offset and limit, gathered into
     * buffers of {@code out} ({@link DeviceRowSort}); string keys are sorted by the ranks of their
     * dictionary's strings.
     */
    private Kept sorted(Kept kept, DeviceArrays out) {
        List<DeviceRowSort.Column> columns = new ArrayList<>();
        for (RowSort.Key key : sort.keys()) {
            Written w = of(kept.written(), key.output());
            int[] ranks = pipeline.outputs().get(key.output()) instanceof StarPipeline.Output.Codes c
                    ? StrDict.of(pipeline.fact().column(c.factColumn()).dictionary()).ranks() : null;
            columns.add(new DeviceRowSort.Column(key, w.values(), w.nulls(), ranks));
        }
        long n = kept.rows();
        DeviceBuffer order = DeviceRowSort.sort(device, out, columns, n);
        return gather(kept.written(), order.pointer().withByteOffset(8 * sort.first(n)), sort.count(n), needed, out);
    }

    /**
     * The {@code m} rows whose indexes {@code rows} holds, of the written outputs in {@code keep}
     * (those that come back, and the sort's keys until it has run), gathered into buffers of
     * {@code out}; the others keep no buffers.
     */
    private Kept gather(List<Written> written, CUdeviceptr rows, long m, BitSet keep, DeviceArrays out) {
        List<Written> gathered = new ArrayList<>();
        for (Written w : written) {
            if (!keep.get(w.column())) {
                gathered.add(new Written(w.column(), w.output(), null, null));
                continue;
            }
            DeviceBuffer v = out.allocate(Math.max(8, m * 8), "kept output column");
            DeviceBuffer nulls = out.allocate(Math.max(1, m), "kept output NULL flags");
            GridLaunch.run(device, ORDER_SOURCE, "gather_rows", m, Pointer.to(w.values().pointer()),
                    Pointer.to(w.nulls().pointer()), Pointer.to(rows), Pointer.to(new long[] {m}),
                    Pointer.to(v.pointer()), Pointer.to(nulls.pointer()));
            gathered.add(new Written(w.column(), w.output(), v, nulls));
        }
        return new Kept(gathered, m);
    }

    /** The buffers of output column {@code column}, which the kernel writes (it is not a constant). */
    private static Written of(List<Written> written, int column) {
        return written.stream().filter(w -> w.column() == column).findFirst().orElseThrow();
    }

    /** Room for {@code capacity} rows of every output the kernel writes (constants it does not). */
    private List<Written> outputBuffers(DeviceArrays out, long capacity) {
        List<Written> written = new ArrayList<>();
        for (int c = 0; c < pipeline.outputs().size(); c++) {
            int register = register(pipeline.outputs().get(c));
            if (register >= 0) {
                DeviceBuffer values = out.allocate(capacity * 8, "output column");
                DeviceBuffer nulls = out.allocate(capacity, "output NULL flags");
                written.add(new Written(c, new StarKernelInput.Output(register, values.address(), nulls.address(), 8), values,
                        nulls));
            }
        }
        return written;
    }

    private static int register(StarPipeline.Output o) {
        return switch (o) {
            case StarPipeline.Output.Value v -> v.register();
            case StarPipeline.Output.Codes c -> c.register();
            case StarPipeline.Output.DimensionValue d -> d.register();
            case StarPipeline.Output.Constant c -> -1;
        };
    }

    private Batch decode(List<Written> written, int n, List<Batch> dimRows, PipelineInputs in, Catalog catalog) {
        Vector[] columns = new Vector[pipeline.outputs().size()];
        Map<Integer, Batch> gpuBuilt = new HashMap<>();
        int w = 0;
        for (int c = 0; c < columns.length; c++) {
            StarPipeline.Output o = pipeline.outputs().get(c);
            if (o instanceof StarPipeline.Output.Constant k) {
                columns[c] = Vector.constant(k.type(), k.value(), n);
                continue;
            }
            Written buffers = written.get(w++);
            if (!needed.get(c)) {
                continue;
            }
            long[] values = WrittenValues.longs(buffers.values(), n);
            boolean[] nulls = WrittenValues.flags(buffers.nulls(), n);
            columns[c] = switch (o) {
                case StarPipeline.Output.Value v -> WrittenValues.vector(v.type(), values, nulls);
                case StarPipeline.Output.Codes s -> Vector.ofCodes(s.type(), values, nulls,
                        StrDict.of(pipeline.fact().column(s.factColumn()).dictionary()));
                case StarPipeline.Output.DimensionValue d -> dimRows.get(d.dimension()) == null
                        ? gpuBuilt.computeIfAbsent(d.dimension(), dim -> gpuBuiltRows(dim, values, catalog)).column(d.column())
                        : dimensionValues(d, values, n, dimRows.get(d.dimension()), in);
                case StarPipeline.Output.Constant k -> throw new IllegalStateException("constants are not written");
            };
        }
        return new Batch(columns, n);
    }

    /** The dimension expression's values at the built rows whose positions the kernel wrote. */
    private static Vector dimensionValues(StarPipeline.Output.DimensionValue d, long[] positions, int n, Batch rows,
                                          PipelineInputs in) {
        int[] rowAt = new int[in.positions(d.dimension(), rows)];
        for (int r = 0; r < rows.rows(); r++) {
            rowAt[in.position(d.dimension(), rows, r)] = r;
        }
        int[] sel = new int[n];
        for (int i = 0; i < n; i++) {
            sel[i] = rowAt[(int) positions[i]];
        }
        return rows.column(d.column()).gather(sel, n);
    }

    /**
     * The rows of dimension {@code d}, built on the GPU, at the table rows the kernel wrote as its
     * positions (every output of the dimension holds the same ones), with every column the output
     * reads: the table's rows are read once for all of them.
     */
    private Batch gpuBuiltRows(int d, long[] rows, Catalog catalog) {
        BitSet columns = new BitSet();
        for (StarPipeline.Output o : pipeline.outputs()) {
            if (o instanceof StarPipeline.Output.DimensionValue v && v.dimension() == d) {
                columns.set(v.column());
            }
        }
        return GpuBuiltRows.at(pipeline.dimensions().get(d).build(), columns, rows, catalog);
    }
}
