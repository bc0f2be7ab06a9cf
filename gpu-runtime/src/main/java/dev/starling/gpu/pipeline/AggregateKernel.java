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
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.hybrid.SpillBuffer;
import java.nio.ByteBuffer;
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
    /** Past this many dense group ids, most would be empty: the groups are hashed instead. */
    static final long MAX_DENSE_GROUPS = 1 << 24;
    /** The most slots a group hash table has (16 GB of states per aggregate slot). */
    static final long MAX_TABLE_SLOTS = 1L << 30;
    /** From this many groups on, those with rows are compacted on the device before they come back. */
    static final long COMPACT_FROM = 1 << 16;
    /** Room for compacted groups on the first try; more are counted, and compacted again with room for all. */
    private static final long FIRST_ROOM = 1 << 16;
    /**
     * How far a group looks for its slot in a table sized for the groups the optimizer expected
     * (at most a quarter full when it was right, where runs this long are all but impossible): past
     * it, the table holds more groups than it was sized for, and the run is redone with one for all
     * there can be.
     */
    static final long GUESSED_TABLE_PROBES = 256;
    /** The fewest groups a table sized by expectation is sized for: a smaller guess saves little and misses more. */
    private static final long LEAST_GUESS = 1 << 15;
    /** The order keys a top-N cut first gathers room for (64 MB); it gathers again with room for all when they are more. */
    private static final long KEY_ROOM = 1 << 23;
    /** Aggregates live in shared memory up to this many bytes per block, so several blocks fit per SM. */
    static final long SHARED_BYTES = 32 << 10;
    private static final String SOURCE = "star_pipeline";

    private final GpuDevice device;
    private final StarPipeline pipeline;
    private final GroupLayout layout;
    /** The groups the states have room for: the dense ids, or the hash table's slots. */
    private final long groups;
    /** The group hash table's key words (null: groups by dense id). */
    private final DeviceBuffer groupKeys;
    private final PipelineInputs in;
    private final DeviceBuffer status;
    /** Whether its group hash table is sized for the groups the optimizer expected, not all there can be. */
    private final boolean guessed;
    private final SpillBuffer states;
    private final StarKernelLauncher.Bound kernel;
    private final double buildMillis;
    private final double prepareMillis;
    private final double copyMillis;

    private AggregateKernel(GpuDevice device, StarPipeline pipeline, GroupLayout layout, long groups, boolean guessed,
                            DeviceBuffer groupKeys, PipelineInputs in, DeviceBuffer status, SpillBuffer states,
                            StarKernelLauncher.Bound kernel, double buildMillis, long[] nanos) {
        this.device = device;
        this.pipeline = pipeline;
        this.layout = layout;
        this.groups = groups;
        this.guessed = guessed;
        this.groupKeys = groupKeys;
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
     * builds in host memory for the CPU workers too. More than {@link #MAX_DENSE_GROUPS} dense ids
     * are hashed: a table with twice as many slots as groups it is sized for, those there can be
     * (no more than the dense ids, nor than the fact rows) or, when {@code expectedGroups} (the
     * optimizer's estimate, else {@link StarPipeline#NO_ESTIMATE}) is fewer, {@link #guessedGroups}, which a
     * run may outgrow ({@link #outgrewItsTable}). Throws {@link Unsupported}, having freed what it took, when the
     * pipeline must run on the CPU after all (group keys past 2^63 ids or a table past
     * {@link #MAX_TABLE_SLOTS}, a foreign key the kernel cannot follow, repeated keys on a hash
     * join's build side).
     */
    static AggregateKernel prepare(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, CloneChoice clones,
                                   OversizedJoin oversized, DeviceInputs inputs, SharedTables shared, long expectedGroups)
            throws Unsupported {
        long[] nanos = new long[5];
        nanos[0] = System.nanoTime();
        List<Batch> dimRows = PipelineInputs.dimensionRows(pipeline, inputs, shared);
        nanos[1] = System.nanoTime();
        Map<Integer, PipelineInputs.Referenced> referenced = PipelineInputs.referencedKeys(pipeline, inputs);
        GroupLayout layout = new GroupLayout(pipeline, dimRows, referenced::get, inputs.catalog());
        int slots = pipeline.slots().size();
        if (layout.groups() == Long.MAX_VALUE) {
            throw new Unsupported("group keys whose ranges pass 2^63 group ids (" + layout + ")");
        }
        boolean hashed = layout.groups() > MAX_DENSE_GROUPS;
        long most = Math.min(layout.groups(), pipeline.fact().rowCount());
        long groups = hashed ? tableSlots(guessedGroups(most, expectedGroups)) : layout.groups();
        boolean guessed = hashed && groups < tableSlots(most);
        if (groups > MAX_TABLE_SLOTS) {
            throw new Unsupported("a group hash table of " + groups + " slots (" + layout + ")");
        }
        long stateBytes = groups * slots * 16;
        long keyBytes = hashed ? groups * 8 : 0;
        List<StarPipeline.Distinct> distincts = StarPipeline.distincts(pipeline.slots());
        long[] pairSlots = distincts.stream().mapToLong(d -> pairSetSlots(d, groups, pipeline.fact().rowCount())).toArray();
        long pairBytes = java.util.Arrays.stream(pairSlots).sum() * 16;
        if (java.util.Arrays.stream(pairSlots).anyMatch(n -> n > MAX_TABLE_SLOTS)) {
            throw new Unsupported("a DISTINCT aggregate's set of more than " + MAX_TABLE_SLOTS + " (group, value) pairs");
        }
        nanos[2] = System.nanoTime();
        PipelineInputs in = PipelineInputs.upload(device, cache, pipeline, dimRows, referenced, layout, oversized,
                stateBytes + keyBytes + pairBytes, shared, inputs,
                // a run shared with the CPU workers reads the chunks they leave it, from whole columns
                shared != SharedTables.NONE);
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
            if (counters == null && !hashed && groups > StarKernelInput.CLONED_GROUPS && CloneChoice.countsOnly(pipeline)
                    && (long) groups * slots * 4 <= SHARED_BYTES) {
                counters = StarKernelInput.Clones.perGroup(groups);
            }
            List<StarKernelInput.Dimension> dims = new ArrayList<>(in.dims());
            if (clones.used() && clones.mode() == AccessMode.READ) {
                StarKernelInput.Dimension probed = dims.get(clones.dimension());
                dims.set(clones.dimension(), probed.withClones(
                        in.leaseCloneLayout(cache, clones.factColumn(), probed.range(), clones.spec())));
            }
            // the dimensions staged in shared memory keep their room; clones take what is left of SHARED_BYTES
            long clonesRoom = Math.min(SHARED_BYTES, StarKernelInput.SHARED_MEMORY_BYTES
                    - StarKernelInput.sharedBytes(StarKernelInput.stage(dims, 0), 0));
            // a split sum's halves stay exact while a clone takes fewer than 2^32 rows
            boolean fewRowsPerClone = pipeline.fact().rowCount() < 1L << 32
                    || pipeline.slots().stream().noneMatch(slot -> slot.kind() == AggKind.SUM_I);
            StarKernelInput.Clones cloned = counters == null && !hashed && groups > 1
                    && groups <= StarKernelInput.CLONED_GROUPS && stateBytes <= clonesRoom && fewRowsPerClone
                    ? StarKernelInput.Clones.perLane(groups, clonesPerGroup(stateBytes, clonesRoom)) : null;
            DeviceBuffer groupKeys = hashed ? arrays.allocate(keyBytes, "group hash table") : null;
            if (groupKeys != null) {
                groupKeys.fill((byte) 0xff, keyBytes);
            }
            List<StarKernelInput.PairSet> pairSets = new ArrayList<>();
            for (long n : pairSlots) {
                DeviceBuffer set = arrays.allocate(n * 16, "DISTINCT set");
                set.fill((byte) 0xff, n * 16);
                pairSets.add(new StarKernelInput.PairSet(set.address(), Long.numberOfLeadingZeros(n) + 1));
            }
            StarKernelInput.Accumulators mode = hashed ? StarKernelInput.Accumulators.HASHED
                    : counters != null ? StarKernelInput.Accumulators.COUNTERS
                    : groups == 1 ? StarKernelInput.Accumulators.SCALAR
                    : cloned != null ? StarKernelInput.Accumulators.CLONED
                    : stateBytes > SHARED_BYTES ? StarKernelInput.Accumulators.GLOBAL
                    : StarKernelInput.Accumulators.SHARED;
            long accBytes = switch (mode) {
                case SHARED -> stateBytes;
                case COUNTERS -> counters.sharedBytes(slots);
                case CLONED -> cloned.clonedBytes(slots);
                default -> 0;
            };
            dims = StarKernelInput.stage(dims, accBytes);
            // last, so that they take what device memory the inputs left and spill only the rest
            states = SpillBuffer.allocate(device, stateBytes, device.memory().available(stateBytes), "aggregate states");
            StarKernelInput input = new StarKernelInput(pipeline.code(), constantValues.length, in.fact(), in.keys(), in.answers(),
                    dims, in.dimColumns(), pipeline.slots(), List.of(), mode, counters != null ? counters : cloned,
                    groupKeys == null ? null : new StarKernelInput.GroupTable(groupKeys.address(),
                            Long.numberOfLeadingZeros(groups) + 1, guessed ? GUESSED_TABLE_PROBES : groups), pairSets, null, null,
                    constants.address(), status.address(), states.address(), pipeline.fact().rowCount(), groups);
            StarKernelLauncher.Bound kernel = new StarKernelLauncher.Bound(device, StarKernelLauncher.compile(device, input),
                    input, (int) StarKernelInput.sharedBytes(dims, accBytes));
            nanos[4] = System.nanoTime();
            initStates(device, states.address(), identities, slots, groups);
            return new AggregateKernel(device, pipeline, layout, groups, guessed, groupKeys, in, status, states, kernel,
                    inputs.buildMillis(), nanos);
        } catch (RuntimeException e) {
            if (states != null) {
                states.close();
            }
            in.close();
            throw e;
        }
    }

    /**
     * How many clones of each group's states the CLONED fold keeps: one per lane of a warp, or as
     * many (a power of two) as fit {@code room} bytes of shared memory, the states of all groups
     * taking {@code stateBytes}. More clones spread a warp's rows of one group over more words;
     * their only cost is shared memory, which bounds the blocks an SM holds.
     */
    static int clonesPerGroup(long stateBytes, long room) {
        return (int) Long.highestOneBit(Math.min(32, room / stateBytes));
    }

    /**
     * The entries of a DISTINCT set ({@code distinct_set.cuh}) over {@code groups} groups (dense
     * ids, or a hash table's slots) and {@code factRows} rows: room for as many pairs as rows, or
     * as groups times the values the argument holds, whichever is fewer.
     */
    static long pairSetSlots(StarPipeline.Distinct distinct, long groups, long factRows) {
        return tableSlots(Math.min(factRows, GroupLayout.times(groups, distinct.values())));
    }

    /**
     * The groups a hash table is first sized for, of at most {@code most}: twice the optimizer's
     * {@code expected} ({@link StarPipeline#NO_ESTIMATE}: all), but no fewer than {@link #LEAST_GUESS}.
     */
    static long guessedGroups(long most, long expected) {
        return Math.min(most, Math.max(LEAST_GUESS, expected > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * expected));
    }

    /** A group hash table's slots for at most {@code groups} groups: a power of two, at least twice as many. */
    static long tableSlots(long groups) {
        return Long.highestOneBit(Math.max(512, groups) * 2 - 1) << 1;
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
    private static void initStates(GpuDevice device, long states, DeviceBuffer identities, int slots, long groups) {
        device.makeCurrent();
        CUfunction init = device.kernel(SOURCE, "init_accumulators");
        int threads = StarKernelLauncher.THREADS;
        long words = (long) groups * slots;
        int blocks = (int) Math.min((words + threads - 1) / threads, device.multiprocessors() * 32L);
        Cuda.check(JCudaDriver.cuLaunchKernel(init, Math.max(1, blocks), 1, 1, threads, 1, 1, 0, null,
                Pointer.to(Pointer.to(new long[] {states}), Pointer.to(identities.pointer()),
                        Pointer.to(new int[] {slots}), Pointer.to(new int[] {(int) groups})),
                null), "launch of init_accumulators");
        device.synchronize("init_accumulators");
    }

    /** The kernel, to be launched over ranges of fact rows. */
    StarKernelLauncher.Bound kernel() {
        return kernel;
    }

    /** Runs the kernel over the fact rows its scan reads ({@link FactScan}); returns the milliseconds it took. */
    float run() {
        return StarKernelLauncher.time(device, () -> in.scan().run(kernel));
    }

    /** How many of the fact table's chunks its scan reads. */
    int chunksRead() {
        return in.scan().chunksRead();
    }

    /** Whether the kernel met a case it leaves to the CPU, and which (empty: none). */
    String handedBack() {
        return KernelStatus.read(status);
    }

    /**
     * Whether the kernel met nothing but more groups than its table, sized for those the optimizer
     * expected, holds: the run is then redone with a table for all there can be.
     */
    boolean outgrewItsTable() {
        return guessed && KernelStatus.word(status) == KernelStatus.GROUP_TABLE_FULL.bit;
    }

    /**
     * The states of the groups the launched rows reached (every group of a query without GROUP
     * BY) that pass {@code having} (null: every one): many groups, and those of a HAVING, are
     * compacted on the device first, so only those with rows that pass cross the link; with an
     * {@code order} (else null), only the first groups in it.
     */
    GroupStates states(GroupFilter having, GroupOrder order) throws Unsupported {
        GroupFilter kept = order == null ? having : first(having, order);
        StateWords words = groupKeys != null || groups >= COMPACT_FROM || kept != null ? compacted(kept) : everyGroup();
        long[] ids = words.ids();
        int n = ids.length;
        Vector[] keys = layout.keyColumns(ids);
        List<AggCall> calls = pipeline.aggregate().calls();
        List<GroupStates.CallStates> out = new ArrayList<>();
        for (int c = 0; c < calls.size(); c++) {
            StarPipeline.CallStates call = pipeline.calls().get(c);
            long[] counts = new long[n];
            long[] longs = new long[n];
            double[] doubles = new double[n];
            boolean sums = call.valueSlot() >= 0 && pipeline.slots().get(call.valueSlot()).kind() == AggKind.SUM_I;
            boolean[] overflow = {false};
            Slices.forEach(n, (from, to) -> {
                for (int i = from; i < to; i++) {
                    counts[i] = words.word(i, call.countSlot(), 0);
                    if (call.valueSlot() >= 0) {
                        long lo = words.word(i, call.valueSlot(), 0);
                        if (sums && words.word(i, call.valueSlot(), 1) != (lo >> 63)) {
                            overflow[0] = true;
                        }
                        longs[i] = lo;
                        doubles[i] = Double.longBitsToDouble(lo);
                    }
                }
            });
            if (overflow[0]) {
                throw new ArithmeticException("SUM overflow: the sum exceeds the 64-bit range of " + calls.get(c).type());
            }
            out.add(new GroupStates.CallStates(counts, longs, doubles));
        }
        return new GroupStates(keys, n, out);
    }

    /**
     * The groups read back, by their ids, and their states' words: group {@code i}'s state of slot
     * {@code s} at {@code start(i) + s * slotStep}, its high word next. Compacted records hold the
     * id, then the slots' states; the states as they lie on the device, each slot's groups in turn.
     */
    private record StateWords(long[] ids, long[] words, boolean records, int stride, long slotStep) {
        long word(int group, int slot, int w) {
            long start = records ? (long) group * stride + 1 : ids[group] * 2;
            return words[(int) (start + slot * slotStep + w)];
        }
    }

    /**
     * {@code having} and, where cutting pays ({@link KeyThreshold#of}), a term that keeps only
     * the groups {@code order} puts first: the order keys of the groups that pass {@code having}
     * are gathered on the device ({@code order_keys}), whose bytes it then counts
     * ({@code key_bytes}) for the threshold's search, one pass over the table and a few over the
     * keys. Without device memory for the keys, every group comes back, as without an order.
     */
    private GroupFilter first(GroupFilter having, GroupOrder order) {
        long sumSlots = 0;
        for (int s = 0; s < pipeline.slots().size(); s++) {
            if (pipeline.slots().get(s).kind() == AggKind.SUM_I) {
                if (s >= Long.SIZE) {
                    return having;
                }
                sumSlots |= 1L << s;
            }
        }
        device.makeCurrent();
        try (DeviceArrays scratch = new DeviceArrays(device.memory())) {
            Terms terms = terms(having, scratch);
            DeviceBuffer counts = scratch.allocate(16, "order key counts");
            long[] found = new long[2];
            long room = Math.min(groups, KEY_ROOM);
            DeviceBuffer keys = orderKeys(scratch, order, terms, sumSlots, counts, room, found);
            if (found[0] > room) {
                keys = orderKeys(scratch, order, terms, sumSlots, counts, found[0], found);
            }
            long threshold = KeyThreshold.onDevice(device, scratch, keys, found[0], order.count(), found[1]);
            return threshold == Long.MIN_VALUE ? having
                    : GroupFilter.and(having, order.keeping(pipeline, threshold), "first " + order.count() + " by " + order.label());
        } catch (GpuOutOfMemoryException e) {
            return having;
        }
    }

    /**
     * The order keys of the groups that pass {@code terms}, gathered into a buffer with room for
     * {@code room} of them (at least one); {@code found} gets how many there were and how many of
     * them have a SUM past 64 bits.
     */
    private DeviceBuffer orderKeys(DeviceArrays scratch, GroupOrder order, Terms terms, long sumSlots, DeviceBuffer counts,
                                   long room, long[] found) {
        DeviceBuffer keys = scratch.allocate(Math.max(8, room * 8), "order keys");
        counts.clear();
        CUfunction gather = device.kernel(SOURCE, "order_keys");
        int threads = StarKernelLauncher.THREADS;
        int blocks = (int) Math.max(1, Math.min((groups + threads - 1) / threads, device.multiprocessors() * 32L));
        Cuda.check(JCudaDriver.cuLaunchKernel(gather, blocks, 1, 1, threads, 1, 1, 0, null,
                Pointer.to(Pointer.to(new long[] {states.address()}), Pointer.to(new long[] {groups}),
                        Pointer.to(new int[] {order.slot()}), Pointer.to(new int[] {order.descending() ? 1 : 0}),
                        Pointer.to(new long[] {terms.address()}), Pointer.to(new int[] {terms.count()}),
                        Pointer.to(new long[] {sumSlots}), Pointer.to(counts.pointer()), Pointer.to(keys.pointer()),
                        Pointer.to(new long[] {room})),
                null), "launch of order_keys");
        device.synchronize("order_keys");
        counts.download(Pointer.to(found), 16);
        return keys;
    }

    /** Every group's states as they lie, slot after slot, keeping those with rows (all of them without GROUP BY). */
    private StateWords everyGroup() {
        int slots = pipeline.slots().size();
        long[] words = new long[Math.toIntExact(groups * slots * 2)];
        states.download(Pointer.to(words), words.length * 8L);
        boolean scalar = pipeline.keys().isEmpty();
        long[] ids = java.util.stream.LongStream.range(0, groups).filter(g -> scalar || words[(int) (g * 2)] != 0)
                .toArray();
        return new StateWords(ids, words, false, 0, groups * 2);
    }

    /**
     * The groups with rows that pass {@code having} (null: all), compacted on the device into
     * records of their id and slot states ({@code compact_groups}); the records spill to host
     * memory where the budget leaves too little, as the states may have.
     */
    private StateWords compacted(GroupFilter having) throws Unsupported {
        try (DeviceArrays scratch = new DeviceArrays(device.memory()); Compacted c = compactAll(having, scratch)) {
            return c.read();
        }
    }

    /**
     * The rows of {@code program}, the plan over the groups {@link #states} would read back
     * (without GROUP BY, the one group, even without rows), computed on the device from their
     * states there, compacted for it: besides them, only the ids of the groups come back, for
     * their keys. An extreme of several groups is handed back when the order cut did not keep only
     * the first of them (too few groups for the cut to pay, or a SUM past 64 bits to report).
     */
    GroupProgram.Computed computed(GroupFilter having, GroupOrder order, GroupProgram.Bound program) throws Unsupported {
        if (pipeline.keys().isEmpty()) {
            return program.run(device, states.address(), 1, 0, groups * 2, new Vector[0]);
        }
        GroupFilter kept = order == null ? having : first(having, order);
        try (DeviceArrays scratch = new DeviceArrays(device.memory()); Compacted c = compactAll(kept, scratch)) {
            long[] ids = c.ids();
            if (program.extreme() && kept == having && ids.length > 1) {
                return new GroupProgram.Computed(null, "the order cut kept every group, not the first");
            }
            return program.run(device, c.records().address(), ids.length, c.stride(), 2, layout.keyColumns(ids));
        }
    }

    /**
     * Groups compacted on the device: how many passed, and the {@code records} (open until this
     * closes) of those below {@code room}, {@code stride} words each.
     */
    private record Compacted(long groups, long room, int stride, SpillBuffer records) implements AutoCloseable {
        boolean complete() {
            return groups <= room;
        }

        /** The groups' ids alone, read back from their records. */
        long[] ids() {
            long[] ids = new long[Math.toIntExact(groups)];
            records.download(Pointer.to(ids), Long.BYTES, (long) stride * Long.BYTES, groups);
            return ids;
        }

        /** The records read back, every group's. */
        StateWords read() {
            int n = (int) groups;
            long[] words = new long[Math.toIntExact(n * (long) stride)];
            records.download(Pointer.to(words), words.length * 8L);
            long[] ids = new long[n];
            Slices.forEach(n, (from, to) -> {
                for (int i = from; i < to; i++) {
                    ids[i] = words[i * stride];
                }
            });
            return new StateWords(ids, words, true, stride, 2);
        }

        @Override
        public void close() {
            records.close();
        }
    }

    /** A HAVING condition's terms in device memory ({@code GroupTerm}s at {@code address}), or none. */
    private record Terms(long address, int count) { }

    /** {@code having}'s terms (null: none) in {@code scratch}. */
    private static Terms terms(GroupFilter having, DeviceArrays scratch) {
        return having == null ? new Terms(0, 0)
                : new Terms(scratch.upload(having.words(), "HAVING terms").address(), having.terms().size());
    }

    /** The groups with rows that pass {@code having} (null: all), every one compacted, with room for all of them. */
    private Compacted compactAll(GroupFilter having, DeviceArrays scratch) throws Unsupported {
        DeviceBuffer count = scratch.upload(new long[] {0}, "compacted group count");
        Terms terms = terms(having, scratch);
        Compacted c = compact(terms, count, Math.min(groups, FIRST_ROOM));
        if (c.complete()) {
            return c;
        }
        c.close();
        if (c.groups() * c.stride() > Integer.MAX_VALUE - 8) {
            throw new Unsupported(c.groups() + " groups, more than one read-back holds");
        }
        count.clear();
        return compact(terms, count, c.groups());
    }

    /**
     * Runs {@code compact_groups} with room for {@code room} records of the groups that pass
     * {@code terms} (counting at {@code count}, zero before).
     */
    private Compacted compact(Terms terms, DeviceBuffer count, long room) {
        int stride = 1 + 2 * pipeline.slots().size();
        long bytes = room * stride * 8;
        SpillBuffer records = SpillBuffer.allocate(device, Math.max(8, bytes), device.memory().available(bytes),
                "compacted groups");
        try {
            device.makeCurrent();
            CUfunction compact = device.kernel(SOURCE, "compact_groups");
            int threads = StarKernelLauncher.THREADS;
            int blocks = (int) Math.max(1, Math.min((groups + threads - 1) / threads, device.multiprocessors() * 32L));
            Cuda.check(JCudaDriver.cuLaunchKernel(compact, blocks, 1, 1, threads, 1, 1, 0, null,
                    Pointer.to(Pointer.to(new long[] {states.address()}), Pointer.to(new long[] {groups}),
                            Pointer.to(new int[] {pipeline.slots().size()}),
                            Pointer.to(new long[] {groupKeys == null ? 0 : groupKeys.address()}),
                            Pointer.to(new long[] {terms.address()}), Pointer.to(new int[] {terms.count()}),
                            Pointer.to(count.pointer()), Pointer.to(new long[] {records.address()}),
                            Pointer.to(new long[] {room})),
                    null), "launch of compact_groups");
            device.synchronize("compact_groups");
            long[] n = new long[1];
            count.download(Pointer.to(n), 8);
            return new Compacted(n[0], room, stride, records);
        } catch (RuntimeException e) {
            records.close();
            throw e;
        }
    }

    /** This run's times and bytes, with the kernel's and the read-back's times and the chunks the GPU ran. */
    RunStats stats(double kernelMillis, double decodeMillis, int gpuChunks) {
        return new RunStats(buildMillis, prepareMillis, copyMillis, kernelMillis, decodeMillis, in.placeMillis(),
                in.factBytes(), in.uploadedBytes(), groups, in.hostTableBytes(), in.partitionedJoins(), in.spilledBytes(),
                states.hostBytes(), gpuChunks, in.scan().describe(), in.scan().streamed());
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
