package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.exec.eval.DictionaryAnswers;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cache.DeviceColumn;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.clone.CloneSpec;
import dev.starling.gpu.clone.ColumnCodes;
import dev.starling.gpu.clone.DeviceCloneLayout;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.MappedHostBuffer;
import dev.starling.gpu.hybrid.OversizedJoinModel;
import dev.starling.gpu.hybrid.PartitionedJoin;
import dev.starling.gpu.hybrid.SplitTable;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jcuda.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a star pipeline's kernel reads, in device memory: the fact columns (as its {@link FactScan}
 * brings them), the referenced key columns (leased from the column cache), and per dimension its rows' group contributions and, by
 * code or row, its hash table and the columns the program reads. A hash table is built on the GPU
 * from its build rows' keys ({@link GpuHashTableBuild}), or on the host where it must be: shared
 * with the CPU workers, or past the budget (placed hybrid or partitioned). Closing it returns the
 * leases and frees the arrays, including any the run allocated through {@link #arrays()}.
 */
final class PipelineInputs implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineInputs.class);
    private final StarPipeline pipeline;
    /** Bytes a run's small arrays (program, descriptors, constants, status) take at most after its hash tables. */
    private static final long SMALL_ARRAYS = 1 << 20;

    private final GpuDevice device;
    private final DeviceArrays arrays;
    private final OversizedJoin oversized;
    private final SharedTables shared;
    /** Device memory the run allocates after the hash tables: its own, the dimension columns, small arrays. */
    private long reserve;
    private final List<SplitTable> splitTables = new ArrayList<>();
    private long hostTableBytes;
    private int partitionedJoins;
    private long spilledBytes;
    private long placeNanos;
    private final List<GpuColumnCache.Lease<?>> leases = new ArrayList<>();
    private FactScan scan;
    private final List<StarKernelInput.Column> fact = new ArrayList<>();
    private final List<StarKernelInput.Key> keys = new ArrayList<>();
    private final List<StarKernelInput.Key> answers = new ArrayList<>();
    private final List<StarKernelInput.Dimension> dims = new ArrayList<>();
    private final List<StarKernelInput.Column> dimColumns = new ArrayList<>();
    private long factBytes;
    private long uploadedBytes;

    /** The key column (of table {@code table}) that a foreign key's codes point into. */
    record Referenced(Table table, int column) {
        Column key() {
            return table.column(column);
        }
    }

    private PipelineInputs(GpuDevice device, StarPipeline pipeline, OversizedJoin oversized, SharedTables shared) {
        this.device = device;
        this.pipeline = pipeline;
        this.oversized = oversized;
        this.shared = shared;
        this.arrays = new DeviceArrays(device.memory());
    }

    /**
     * Each dimension's rows as the kernel reads them, from the build sides the CPU ran ({@code
     * shared} ones, the joins' own build sides, for the CPU workers' joins too), in order, an
     * outer one's row of NULLs last; null for a dimension the GPU builds.
     */
    static List<Batch> dimensionRows(StarPipeline pipeline, DeviceInputs inputs, SharedTables shared) {
        List<Batch> rows = new ArrayList<>();
        int built = 0;
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            StarPipeline.Dimension dim = pipeline.dimensions().get(d);
            if (dim.builtOnGpu()) {
                rows.add(null);
                continue;
            }
            Batch batch = inputs.builds().get(built++);
            Batch projected = shared.shares(d) ? shared.project(d, dim, batch) : batch;
            rows.add(dim.outer() ? withNullRow(dim, projected) : projected);
        }
        return rows;
    }

    /**
     * Outer dimension {@code dim}'s built rows {@code rows}, then its row of NULLs: its projection
     * of a build row whose columns are all NULL (a NULL key, which no probe finds), which gives each
     * expression over them the value a LEFT join's unmatched row has (COALESCE's default, say).
     */
    private static Batch withNullRow(StarPipeline.Dimension dim, Batch rows) {
        ProjectNode projection = (ProjectNode) dim.build();
        List<Field> buildFields = projection.input().output();
        Vector[] nulls = new Vector[buildFields.size()];
        for (int c = 0; c < nulls.length; c++) {
            nulls[c] = Vector.constant(buildFields.get(c).type(), null, 1);
        }
        Batch nullRow = DimensionProjection.apply(projection, new Batch(nulls, 1));
        return BatchBuffer.concat(projection.output(), List.of(rows, nullRow));
    }

    /** The referenced key columns of the fact's foreign keys whose values the pipeline reads or groups by, by fact column. */
    static Map<Integer, Referenced> referencedKeys(StarPipeline pipeline, DeviceInputs inputs) throws Unsupported {
        Map<Integer, Referenced> out = new HashMap<>();
        for (StarPipeline.GroupKey key : pipeline.keys()) {
            if (key.referenced()) {
                out.put(key.factColumn(), referenced(pipeline, key.factColumn(), inputs));
            }
        }
        for (int c : pipeline.keyColumns()) {
            out.put(c, referenced(pipeline, c, inputs));
        }
        if (out.values().stream().anyMatch(r -> r.key().isDenseCoded())) {
            throw new Unsupported("a foreign key referring to a key that is itself a foreign key");
        }
        return out;
    }

    private static Referenced referenced(StarPipeline pipeline, int factColumn, DeviceInputs inputs) {
        Column.DenseReference reference = pipeline.fact().column(factColumn).denseReference();
        Table table = inputs.table(reference.table());
        return new Referenced(table, table.schema().indexOf(reference.keyColumn()));
    }

    /**
     * Leases and uploads everything; {@code contribution} gives built row r of dimension d's part of
     * the group id, 32-bit unless it says they are wide; {@code oversized} how a hash join whose
     * table is past the budget runs, and {@code later} the device memory the run allocates after
     * these inputs (aggregate states, output buffers), which a table past the budget leaves free; {@code shared} the tables it
     * builds in host memory and hands to the CPU workers; {@code inputs} the catalog the dimensions
     * built on the GPU read their tables' foreign keys through; {@code wholeFact}: whether the
     * kernel reads the fact columns whole (not through {@link #scan()}). Throws {@link Unsupported} (having
     * freed what it took) when a hashed dimension's keys repeat or a dimension built on the GPU
     * meets a value it leaves to the CPU.
     */
    static PipelineInputs upload(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, List<Batch> dimRows,
                                 Map<Integer, Referenced> referenced, Contributions contribution,
                                 OversizedJoin oversized, long later, SharedTables shared, DeviceInputs inputs,
                                 boolean wholeFact) throws Unsupported {
        PipelineInputs in = upload(device, cache, pipeline, dimRows, referenced, contribution, oversized, later, shared,
                inputs, wholeFact, false);
        if (in != null) {
            return in;
        }
        // The fact columns kept in the cache left too little for what was leased after them (the
        // scan reserves for the run's state and dimension rows, not for every dimension column):
        // once more with the fact streamed through buffers, before the CPU's turn.
        return upload(device, cache, pipeline, dimRows, referenced, contribution, oversized, later, shared, inputs,
                false, true);
    }

    /** The inputs, or null where the fact scan kept its columns and what came after them did not fit. */
    private static PipelineInputs upload(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline,
                                         List<Batch> dimRows, Map<Integer, Referenced> referenced,
                                         Contributions contribution, OversizedJoin oversized, long later,
                                         SharedTables shared, DeviceInputs inputs, boolean wholeFact,
                                         boolean streamFact) throws Unsupported {
        PipelineInputs in = new PipelineInputs(device, pipeline, oversized, shared);
        in.reserve = later + SMALL_ARRAYS;
        for (StarPipeline.DimColumn dc : pipeline.dimColumns()) {
            Batch rows = dimRows.get(dc.dimension());
            in.reserve += (rows == null ? pipeline.dimensions().get(dc.dimension()).range() : rows.rows()) * 9L;
        }
        try {
            in.leaseColumns(cache, referenced, wholeFact, streamFact);
            in.leaseAnswers(cache);
            in.uploadDimensions(cache, dimRows, contribution, inputs);
            return in;
        } catch (Unsupported | RuntimeException e) {
            boolean keptFact = e instanceof GpuOutOfMemoryException && !wholeFact && !streamFact && in.scan != null
                    && !in.scan.streamed();
            in.close();
            if (keptFact) {
                LOG.info("{}: the fact's columns streamed instead", e.getMessage());
                return null;
            }
            throw e;
        }
    }

    private void leaseColumns(GpuColumnCache cache, Map<Integer, Referenced> referenced, boolean wholeFact,
                              boolean streamFact) {
        // hash tables are not reserved for: one past the budget runs hybrid or partitioned beside the columns
        scan = FactScan.open(device, cache, pipeline, arrays, reserve, wholeFact, streamFact);
        fact.addAll(scan.columns());
        factBytes = scan.readBytes();
        long residentBefore = cache.residentBytes();
        for (int c : pipeline.keyColumns()) {
            Referenced r = referenced.get(c);
            GpuColumnCache.Lease<DeviceColumn> lease = cache.lease(r.table(), r.column());
            leases.add(lease);
            keys.add(new StarKernelInput.Key(lease.value().values().address(), lease.value().width(), r.table().rowCount()));
        }
        uploadedBytes += cache.residentBytes() - residentBefore;
    }

    /**
     * Each string function's answers, an entry per entry of its column's dictionary and one for a
     * NULL string (a predicate's byte, a group key's 32-bit rank), computed by the CPU evaluator
     * for the table version the pipeline reads and leased from the column cache, which keeps them
     * on the device with that column: TPC-H Q13's answers for 15M comments at SF 10 cross the link
     * once, not per run.
     */
    private void leaseAnswers(GpuColumnCache cache) throws Unsupported {
        Table fact = pipeline.fact();
        for (StarPipeline.StringFunction f : pipeline.answers()) {
            Column column = fact.column(f.tableColumn());
            long entries = column.dictionary().size() + 1L;
            int width = f.ranks() ? 4 : 1;
            Pointer host = f.ranks() ? Pointer.to(keyRanks(fact, f).rank()) : Pointer.to(predicateAnswers(fact, f));
            GpuColumnCache.Lease<DeviceColumn> lease = cache.leaseDerived(fact, f.tableColumn(), f, c -> {
                DeviceBuffer b = device.memory().upload(host, entries * width,
                        (f.ranks() ? "ranks of " : "answers of ") + f.function());
                uploadedBytes += entries * width;
                return new DeviceColumn(b, null, width, entries);
            });
            leases.add(lease);
            answers.add(new StarKernelInput.Key(lease.value().values().address(), width, entries));
        }
    }

    /** String predicate {@code f}'s answers per entry of its column of {@code fact} ({@link DictionaryAnswers#of}). */
    static byte[] predicateAnswers(Table fact, StarPipeline.StringFunction f) throws Unsupported {
        Column column = fact.column(f.tableColumn());
        return answered(column, () -> DictionaryAnswers.of(f.function(), column.type(), StrDict.of(column.dictionary())));
    }

    /** Group key {@code f}'s ranks per entry of its column of {@code fact} ({@link DictionaryAnswers#ranks}). */
    static DictionaryAnswers.Ranks keyRanks(Table fact, StarPipeline.StringFunction f) throws Unsupported {
        Column column = fact.column(f.tableColumn());
        return answered(column, () -> DictionaryAnswers.ranks(f.function(), column.type(), StrDict.of(column.dictionary())));
    }

    /**
     * {@code answers} of a string function of {@code column}; one that fails for some entry (a CAST
     * of a string that is no number) goes to the CPU, which fails, or not, as the rows it meets decide.
     */
    private static <T> T answered(Column column, java.util.function.Supplier<T> answers) throws Unsupported {
        try {
            return answers.get();
        } catch (RuntimeException e) {
            throw new Unsupported("a string function that fails for some string of " + column.name() + ": " + e.getMessage());
        }
    }

    private void uploadDimensions(GpuColumnCache cache, List<Batch> dimRows, Contributions contribution,
                                  DeviceInputs inputs) throws Unsupported {
        boolean wide = contribution.wideContributions();
        Map<Integer, java.util.Iterator<StarKernelInput.Column>> gpuBuilt = new HashMap<>();
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            StarPipeline.Dimension dim = pipeline.dimensions().get(d);
            if (dim.builtOnGpu()) {
                int at = d;
                GpuDimensionBuild built = GpuDimensionBuild.run(device, cache, dim,
                        pipeline.dimColumns().stream().filter(c -> c.dimension() == at).toList(), arrays, wide,
                        contribution.rowMultiplier(d), inputs);
                dims.add(dim.hashed()
                        ? new StarKernelInput.Dimension(built.contributions(), dim.range(), gpuBuiltTable(d, built), -1, null, wide)
                        : new StarKernelInput.Dimension(built.contributions(), dim.densePositions(), wide));
                gpuBuilt.put(d, built.columns().iterator());
                continue;
            }
            Batch rows = dimRows.get(d);
            int positions = positions(d, rows);
            DeviceBuffer b = wide ? wideContributions(d, rows, contribution) : contributions(d, rows, contribution);
            uploadedBytes += b.bytes();
            if (!pipeline.dimensions().get(d).hashed()) {
                dims.add(new StarKernelInput.Dimension(b.address(), positions, wide));
                continue;
            }
            StarKernelInput.HashTable table;
            if (shared.shares(d)) {
                table = sharedTable(d, rows);
            } else {
                Optional<StarKernelInput.HashTable> onDevice = GpuHashTableBuild.build(device, arrays, d, rows.column(0),
                        rows.rows(), dim.presence());
                if (onDevice.isPresent()) {
                    table = onDevice.get();
                    uploadedBytes += 8L * rows.rows();
                } else {
                    DimensionHashTable built = hashTable(d, DimensionHashTable.build(rows.column(0), rows.rows(),
                            dim.presence()));
                    long start = System.nanoTime();
                    table = place(d, built, rows);
                    placeNanos += System.nanoTime() - start;
                }
            }
            dims.add(new StarKernelInput.Dimension(b.address(), positions, table, -1, null, wide));
        }
        for (StarPipeline.DimColumn dc : pipeline.dimColumns()) {
            var written = gpuBuilt.get(dc.dimension());
            dimColumns.add(written != null ? written.next() : dimColumn(dc, dimRows.get(dc.dimension())));
        }
    }

    /**
     * The hash table of hashed dimension {@code d}, built on the GPU, over the keys its build wrote
     * at its table's rows; a table that does not fit, or a key the table cannot hold, leaves the
     * pipeline to the CPU.
     */
    private StarKernelInput.HashTable gpuBuiltTable(int d, GpuDimensionBuild built) throws Unsupported {
        StarPipeline.Dimension dim = pipeline.dimensions().get(d);
        return GpuHashTableBuild.build(device, arrays, d, built.keys(), dim.range(), dim.presence())
                .orElseThrow(() -> new Unsupported("the hash table of join " + d + ", past the device memory budget or "
                        + "holding the key " + Long.MIN_VALUE));
    }

    /** Dimension {@code d}'s contributions by position, -1 where no built row is. */
    private DeviceBuffer contributions(int d, Batch rows, Contributions contribution) {
        int[] byPosition = new int[positions(d, rows)];
        java.util.Arrays.fill(byPosition, -1);
        for (int r = 0; r < rows.rows(); r++) {
            byPosition[position(d, rows, r)] = (int) contribution.contribution(d, r);
        }
        return arrays.upload(byPosition, "dimension " + d + " group contributions");
    }

    /** The same, 64-bit. */
    private DeviceBuffer wideContributions(int d, Batch rows, Contributions contribution) {
        long[] byPosition = new long[positions(d, rows)];
        java.util.Arrays.fill(byPosition, -1);
        for (int r = 0; r < rows.rows(); r++) {
            byPosition[position(d, rows, r)] = contribution.contribution(d, r);
        }
        return arrays.upload(byPosition, "dimension " + d + " group contributions");
    }

    /**
     * Each built row's part of the group id, and whether those parts need 64 bits; for a dimension
     * built on the GPU, its part per row index of its table.
     */
    @FunctionalInterface
    interface Contributions {
        long contribution(int dimension, int row);

        default boolean wideContributions() {
            return false;
        }

        default long rowMultiplier(int dimension) {
            return 0;
        }
    }

    private static DimensionHashTable hashTable(int d, Optional<DimensionHashTable> built) throws Unsupported {
        return built.orElseThrow(() -> new Unsupported("the build side of hash join " + d + " has duplicate keys"));
    }

    /**
     * Dimension {@code d}'s hash table built once in pinned host memory for the kernel, which reads
     * it over the link, and for the CPU workers, to whom it is handed (they free it).
     */
    private StarKernelInput.HashTable sharedTable(int d, Batch rows) throws Unsupported {
        long start = System.nanoTime();
        MappedHostBuffer memory = device.mappedHost(DimensionHashTable.bytesFor(rows.rows()));
        placeNanos += System.nanoTime() - start;
        DimensionHashTable table;
        try {
            table = hashTable(d, DimensionHashTable.buildIn(rows.column(0), rows.rows(),
                    pipeline.dimensions().get(d).presence(), memory.segment()));
        } catch (Unsupported | RuntimeException e) {
            memory.close();
            throw e;
        }
        shared.publish(d, table, memory, device);
        hostTableBytes += memory.bytes();
        // a mapped host address reads like a device one: the kernel sees a table in one range
        return new StarKernelInput.HashTable(memory.address(), 0, 0, table.shift());
    }

    /**
     * Dimension {@code d}'s hash table in device memory, or, when the budget cannot hold it, as
     * {@link OversizedJoinModel} chooses: a partitioned join's matches (when the probe key is a fact
     * column as stored), or a hybrid table: as many slots on the device as leave {@link #reserve}
     * for the rest of the run, the others in host memory the kernel reads over the link; in one
     * address range where the driver allows it (the kernel cannot tell), else in two.
     */
    private StarKernelInput.HashTable place(int d, DimensionHashTable table, Batch rows) {
        long bytes = table.slots().length * 8L;
        try {
            DeviceBuffer t = arrays.upload(table.slots(), "dimension " + d + " hash table");
            uploadedBytes += t.bytes();
            return new StarKernelInput.HashTable(t.address(), 0, 0, table.shift());
        } catch (GpuOutOfMemoryException e) {
            DeviceMemory memory = device.memory();
            long left = Math.max(0, memory.available(bytes) - reserve);
            int probeKey = pipeline.probeKeyColumn(d);
            OversizedJoinModel.Choice choice = new OversizedJoinModel(device.profile()).choose(oversized, probeKey >= 0,
                    pipeline.fact().rowCount(), rows.rows(), bytes, left);
            LOG.info("dimension {}: {}", d, choice.reason());
            if (choice.partitioned() && !scan.streamed()) {
                try {
                    return partitioned(d, rows, scan.whole(probeKey), left);
                } catch (GpuOutOfMemoryException tooLarge) {
                    LOG.info("dimension {}: no partitioned join ({}): a hybrid table", d, tooLarge.getMessage());
                    // its matches stay allocated until the run ends
                    left = Math.max(0, memory.available(bytes) - reserve);
                }
            }
            SplitTable split = SplitTable.place(device, table.slots(), table.shift(), left, SplitTable.Layout.CONTIGUOUS);
            splitTables.add(split);
            uploadedBytes += split.slotsOnDevice() * DimensionHashTable.SLOT_BYTES;
            hostTableBytes += bytes - split.slotsOnDevice() * DimensionHashTable.SLOT_BYTES;
            // in one range the host address is 0: the kernel reads every slot as a device one
            return new StarKernelInput.HashTable(split.deviceAddress(), split.hostAddress(), split.split(), table.shift());
        }
    }

    /**
     * Each fact row's build row of dimension {@code d}, found by a partitioned join of
     * {@code probe} against its keys, in device memory (4 bytes a fact row: the join writes them
     * at random, which host memory would take one small write at a time).
     */
    private StarKernelInput.HashTable partitioned(int d, Batch rows, StarKernelInput.Column probe, long left) {
        long factRows = pipeline.fact().rowCount();
        DeviceBuffer matches = arrays.allocate(4 * factRows, "dimension " + d + " matches");
        Vector keys = rows.column(0);
        PartitionedJoin.Stats s = PartitionedJoin.run(device, new PartitionedJoin.ProbeKeys(probe.values(),
                probe.nulls(), probe.width(), factRows), new PartitionedJoin.BuildKeys(keys.longs(), keys.nulls(),
                rows.rows()), left - matches.heldBytes(), matches);
        partitionedJoins++;
        spilledBytes += s.spilledBytes();
        LOG.info("dimension {}: partitioned join {}", d, s);
        return StarKernelInput.HashTable.matched(matches.address());
    }

    /**
     * How many positions dimension {@code d}'s arrays have: one per code (dense), an outer one's row
     * of NULLs past them, or per built row (hashed).
     */
    int positions(int d, Batch rows) {
        StarPipeline.Dimension dim = pipeline.dimensions().get(d);
        return dim.hashed() ? rows.rows() : Math.toIntExact(dim.densePositions());
    }

    /**
     * Where built row {@code r} of dimension {@code d} sits in its arrays: at its code (dense; an
     * outer one's row of NULLs, the last, past the codes) or its own index (hashed).
     */
    int position(int d, Batch rows, int r) {
        StarPipeline.Dimension dim = pipeline.dimensions().get(d);
        if (dim.hashed()) {
            return r;
        }
        return dim.outer() && r == rows.rows() - 1 ? Math.toIntExact(dim.range())
                : (int) rows.column(dim.keyColumn()).longs()[r];
    }

    /** Uploads a dimension column by position, as narrow as its type allows (booleans in a byte, 32-bit types in four). */
    private StarKernelInput.Column dimColumn(StarPipeline.DimColumn dc, Batch rows) {
        int d = dc.dimension();
        int range = positions(d, rows);
        Vector v = ExprCompiler.compile(dc.expr()).eval(rows);
        int width = dc.expr().type().physical().width;
        ByteBuffer values = DeviceArrays.buffer((long) range * width);
        byte[] nulls = v.nulls() == null ? null : new byte[range];
        for (int r = 0; r < rows.rows(); r++) {
            int p = position(d, rows, r);
            long value = v.isDouble() ? Double.doubleToRawLongBits(v.doubles()[r]) : v.longs()[r];
            switch (width) {
                case 1 -> values.put(p, (byte) value);
                case 4 -> values.putInt(p * 4, (int) value);
                default -> values.putLong(p * 8, value);
            }
            if (nulls != null && v.nulls()[r]) {
                nulls[p] = 1;
            }
        }
        DeviceBuffer vb = arrays.upload(values, "dimension column");
        DeviceBuffer nb = nulls == null ? null : arrays.upload(nulls, "dimension column NULL flags");
        uploadedBytes += vb.bytes() + (nb == null ? 0 : nb.bytes());
        return new StarKernelInput.Column(vb.address(), nb == null ? 0 : nb.address(), width);
    }

    /**
     * The clone layout {@code spec} of fact column {@code c} (a foreign key into a table of
     * {@code referencedRows} rows, else ignored), leased from the column cache (built and uploaded
     * there first when it is not resident).
     */
    StarKernelInput.Clones leaseCloneLayout(GpuColumnCache cache, int c, long referencedRows, CloneSpec spec) {
        Table fact = pipeline.fact();
        GpuColumnCache.Lease<DeviceCloneLayout> lease = cache.leaseDerived(fact, c, spec, column -> DeviceCloneLayout.build(
                device.memory(), ColumnCodes.of(column, referencedRows), spec,
                fact.name() + "." + column.name() + " clone layout (" + spec + ")"));
        leases.add(lease);
        DeviceCloneLayout layout = lease.value();
        return new StarKernelInput.Clones(layout.slots().address(), layout.cloneMap().address(), layout.entries());
    }

    /** For the run's own buffers, freed with these. */
    DeviceArrays arrays() {
        return arrays;
    }

    List<StarKernelInput.Column> fact() {
        return fact;
    }

    List<StarKernelInput.Key> keys() {
        return keys;
    }

    List<StarKernelInput.Key> answers() {
        return answers;
    }

    List<StarKernelInput.Dimension> dims() {
        return dims;
    }

    List<StarKernelInput.Column> dimColumns() {
        return dimColumns;
    }

    /** How the kernel reads its fact rows. */
    FactScan scan() {
        return scan;
    }

    /** Bytes of the fact columns the kernel reads: those of the chunks its scan reads. */
    long factBytes() {
        return factBytes;
    }

    /** Bytes copied to the device for this run (fact chunks, columns not yet resident, dimension arrays). */
    long uploadedBytes() {
        return uploadedBytes + scan.copiedBytes();
    }

    /** Bytes of hash tables left in host memory (hybrid tables), which the kernel reads over the link. */
    long hostTableBytes() {
        return hostTableBytes;
    }

    /**
     * Time spent placing hash tables built on the CPU: copying them, placing hybrid ones, partitioned
     * joins, or pinning the host memory a shared one is built in.
     */
    double placeMillis() {
        return placeNanos / 1e6;
    }

    /** How many hash joins ran partitioned, and the bytes of their partitions spilled to host memory. */
    int partitionedJoins() {
        return partitionedJoins;
    }

    long spilledBytes() {
        return spilledBytes;
    }

    @Override
    public void close() {
        try {
            leases.forEach(GpuColumnCache.Lease::close);
            if (scan != null) {
                scan.close();
            }
        } finally {
            try {
                splitTables.forEach(SplitTable::close);
            } finally {
                arrays.close();
            }
        }
    }
}
