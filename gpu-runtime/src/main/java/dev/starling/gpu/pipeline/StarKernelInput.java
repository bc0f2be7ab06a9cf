package dev.starling.gpu.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything one launch of a star pipeline kernel needs: the program and the shapes its code is
 * specialized to (column widths, which columns have NULLs, where the aggregates live), and the
 * device addresses and sizes passed as its parameters. Two inputs of the same shape share one
 * compiled kernel. An aggregation folds into {@code slots} at {@code acc}, {@code groups} groups;
 * a selection ({@link Accumulators#ROWS}) writes its surviving rows' {@code outputs}, counting
 * them at {@code acc}, room for {@code groups} rows, only those that reach {@code order}'s
 * threshold where it is given ({@link Accumulators#ORDER_KEYS} writes their order keys first);
 * a dimension built on the GPU
 * ({@link Accumulators#BY_ROW}) writes its {@code outputs} and {@code rowWrites} at each row that
 * passes. {@code clones}: the entries the {@link Accumulators#COUNTERS} fold counts at, or the
 * {@link Accumulators#CLONED} fold's clones of the group states (else null);
 * {@code groupTable}: the key words of the {@link Accumulators#HASHED} fold's table of
 * {@code groups} slots (else null).
 */
record StarKernelInput(int[] code, int constantCount, List<Column> fact, List<Key> keys, List<Key> answers,
                       List<Dimension> dimensions,
                       List<Column> dimColumns, List<StarPipeline.Slot> slots, List<Output> outputs,
                       Accumulators accumulators, Clones clones, GroupTable groupTable, List<PairSet> distinctSets,
                       RowWrites rowWrites, OrderCut order, long constants, long status, long acc, long rows, long groups) {

    StarKernelInput {
        if ((accumulators == Accumulators.COUNTERS || accumulators == Accumulators.CLONED) != (clones != null)) {
            throw new IllegalArgumentException("the COUNTERS and CLONED folds, and only they, have entries in shared memory");
        }
        if ((accumulators == Accumulators.HASHED) != (groupTable != null)) {
            throw new IllegalArgumentException("the HASHED fold, and only it, has a group table");
        }
        distinctSets = List.copyOf(distinctSets);
        if (distinctSets.size() != StarPipeline.distincts(slots).size()) {
            throw new IllegalArgumentException("one set of (group, value) pairs per DISTINCT set of the slots");
        }
        if ((accumulators == Accumulators.BY_ROW) != (rowWrites != null)) {
            throw new IllegalArgumentException("a dimension built by row, and only it, writes group contributions");
        }
        if (accumulators == Accumulators.ORDER_KEYS ? order == null || outputs.size() != 1
                : order != null && accumulators != Accumulators.ROWS) {
            throw new IllegalArgumentException("the ORDER_KEYS pass writes one output, its keys; only it and a selection cut rows by an order");
        }
    }

    /**
     * A selection's order whose first rows alone are wanted ({@link RowOrder}), cut in two passes
     * when many rows pass: the {@link Accumulators#ORDER_KEYS} pass writes each passing row's order
     * key (of the value in {@code register}; {@code floating}: a double) at its own row index, the
     * host finds the key the first rows reach from those ({@link KeyThreshold}), and the
     * {@link Accumulators#ROWS} pass writes only the rows whose key is at least {@code threshold}
     * ({@code order_key.cuh}), so that the other rows are never written.
     */
    record OrderCut(int register, boolean descending, boolean floating, long threshold) {
        OrderCut withThreshold(long key) {
            return new OrderCut(register, descending, floating, key);
        }
    }

    /**
     * Where a dimension built on the GPU writes each passing row's group contribution, its row
     * index, or the digit its program computes into register {@code digit} (when not -1), times
     * {@code multiplier} ({@code wide}: 64-bit, else 32-bit). A computed digit at or past
     * {@code radix} (values outside the ranges the statistics gave) hands the pipeline back. A
     * marking build ({@code at} not -1) writes at the code in register {@code at} instead of at its
     * row, skipping a NULL code; one at or past {@code positions} hands it back. There it writes 0,
     * present, when {@code marked}, and folds each output's value, not NULL, by its fold in
     * {@code folds} (one per output, or none): into the least or greatest (MIN_I, MAX_I), a count of
     * values (COUNT) or their sum (SUM_I). A dimension of extremes is not marked: every code is
     * present there.
     */
    record RowWrites(long contributions, boolean wide, long multiplier, int digit, long radix, int at, long positions,
                     boolean marked, List<AggKind> folds) {
        RowWrites {
            folds = List.copyOf(folds);
        }
    }

    /**
     * A group hash table's key words ({@code groups} of them, 2^(64 - shift)), EMPTY_GROUP where
     * free; a group looks at most {@code probes} slots from its home for its own.
     */
    record GroupTable(long keys, int shift, long probes) { }

    /** A DISTINCT aggregate's set of (group, value) pairs: 2^(64 - shift) 16-byte entries, EMPTY_PAIR where free. */
    record PairSet(long entries, int shift) { }

    /**
     * The entries of a shared-memory table: with a clone layout ({@code slots} != 0), per fact
     * row the entry it accesses ({@code slots}, 32-bit) and per entry the code (for counters, the
     * group) whose copy it holds ({@code map}, 32-bit); without one, an entry per code or group,
     * or, for the {@link Accumulators#CLONED} fold, per clone of a group's states.
     */
    record Clones(long slots, long map, long entries) {
        /** One counter per group, no layout. */
        static Clones perGroup(long groups) {
            return new Clones(0, 0, groups);
        }

        /** {@code copies} clones (a power of two, at most a warp's lanes) of each of {@code groups} groups' states. */
        static Clones perLane(long groups, int copies) {
            if (Integer.bitCount(copies) != 1 || copies > 32) {
                throw new IllegalArgumentException("clones per group: a power of two up to 32, not " + copies);
            }
            return new Clones(0, 0, groups * copies);
        }

        boolean remapped() {
            return slots != 0;
        }

        /** Shared memory the counters take: one 32-bit word per entry and slot, rounded to 16 bytes. */
        long sharedBytes(int slots) {
            return (entries * 4 * slots + 15) & ~15L;
        }

        /** Shared memory the cloned states take: two 64-bit words per entry and slot. */
        long clonedBytes(int slots) {
            return entries * 16 * slots;
        }
    }

    /** A column's values ({@code width} bytes each) and NULL flags (0: the column has no NULLs). */
    record Column(long values, long nulls, int width) {
        boolean nullable() {
            return nulls != 0;
        }
    }

    /**
     * An array that a fact column's codes index ({@code width} bytes per entry, {@code rows}
     * entries, no NULLs): a referenced table's key column, or a string predicate's answers.
     */
    record Key(long values, int width, long rows) { }

    /**
     * A dimension's group contribution per code (dense) or per row (hashed), and how many codes it
     * has; a hashed dimension also has its hash table ({@link DimensionHashTable}). {@code staged}
     * >= 0: a dense dimension's contributions are copied into each block's shared memory at that
     * byte offset, and probed there; with {@code clones} (a read clone layout of the foreign key),
     * replicated as the layout's entries and probed at each row's slot. {@code wide}: the
     * contributions are 64-bit (group ids whose dimension digits pass 2^31), else 32-bit.
     */
    record Dimension(long contribution, long range, HashTable hash, long staged, Clones clones, boolean wide) {
        Dimension(long contribution, long range, boolean wide) {
            this(contribution, range, null, -1, null, wide);
        }

        boolean hashed() {
            return hash != null;
        }

        boolean isStaged() {
            return staged >= 0;
        }

        /** The entries of its table in shared memory: one per code, or the clone layout's. */
        long entries() {
            return clones == null ? range : clones.entries();
        }

        Dimension withClones(Clones c) {
            return new Dimension(contribution, range, hash, staged, c, wide);
        }
    }

    /**
     * How a hashed dimension's rows are found. A hash table's slots: those below {@code split} at
     * {@code device}, the rest (when {@code host} != 0, a hybrid table) from {@code host}, pinned
     * host memory the kernel reads over the link; {@code shift} turns a key's hash into its home
     * slot. Or, when {@code matches} != 0, found before the kernel by a partitioned join: per fact
     * row, the build row its key matched, or -1.
     */
    record HashTable(long device, long host, long split, long shift, long matches) {
        HashTable(long device, long host, long split, long shift) {
            this(device, host, split, shift, 0);
        }

        static HashTable matched(long matches) {
            return new HashTable(0, 0, 0, 0, matches);
        }

        boolean hybrid() {
            return host != 0;
        }

        boolean matched() {
            return matches != 0;
        }
    }

    /** Shared memory a block may use without asking the driver for more: accumulators and staged dimensions share it. */
    static final long SHARED_MEMORY_BYTES = 48 << 10;
    /** The largest dimension staged in shared memory: one small enough to leave room for blocks' accumulators. */
    static final long STAGED_DIMENSION_BYTES = 16 << 10;

    /**
     * {@code dims} with the small dense ones staged in shared memory after {@code used} bytes (the
     * accumulators'), as long as the block's total stays within {@link #SHARED_MEMORY_BYTES}. A
     * dimension with a clone layout is staged wherever it fits; one that does not loses its layout.
     */
    static List<Dimension> stage(List<Dimension> dims, long used) {
        List<Dimension> out = new ArrayList<>();
        long end = (used + 15) & ~15L;
        for (Dimension d : dims) {
            long bytes = (d.entries() * 4 + 15) & ~15L;
            if (!d.hashed() && !d.wide() && (bytes <= STAGED_DIMENSION_BYTES || d.clones() != null)
                    && end + bytes <= SHARED_MEMORY_BYTES) {
                out.add(new Dimension(d.contribution(), d.range(), null, end, d.clones(), false));
                end += bytes;
            } else {
                out.add(d.withClones(null));
            }
        }
        return out;
    }

    /** The dynamic shared memory a block needs: accumulators ({@code used} bytes) and staged dimensions. */
    static long sharedBytes(List<Dimension> dims, long used) {
        long end = used;
        for (Dimension d : dims) {
            if (d.isStaged()) {
                end = Math.max(end, d.staged() + d.entries() * 4);
            }
        }
        return end;
    }

    /** Where the aggregate states are folded. */
    enum Accumulators {
        /** One group: per-thread partials, reduced per warp once at the end. */
        SCALAR,
        /** Few groups: a block's copy in shared memory, merged into global memory at the end. */
        SHARED,
        /**
         * Very few groups (up to {@link #CLONED_GROUPS}): as SHARED, but the block keeps clones of
         * the states ({@link Clones#perLane}) and a row folds into the clone its lane picks, so
         * that rows crowding into a few groups do not serialize on the same shared words
         * ({@code fold.cuh}'s cloned states).
         */
        CLONED,
        /**
         * Counts only: a block's 32-bit counters in shared memory (a quarter of SHARED's words, and
         * 32-bit atomics, which Hopper does natively where 64-bit ones contend), one per group, or
         * one per entry of a clone layout's replicated table ({@link Clones}), each row counting
         * at the entry its slot names (chosen so a warp's rows meet few bank and value conflicts);
         * each entry is merged into its group at the end.
         */
        COUNTERS,
        /** Many groups: atomics on the global states. */
        GLOBAL,
        /**
         * Groups whose dense ids would mostly be empty: atomics on the global states of a hash
         * table's slots, each group claiming a slot by its id ({@link GroupTable}).
         */
        HASHED,
        /** No aggregation: the rows that pass are written out, compacted, in no particular order. */
        ROWS,
        /**
         * A selection's first pass under an order that cuts its rows ({@link OrderCut}): each row that
         * passes writes its order key at its own row index, and nothing else; the others leave the
         * key the host wrote there, 0, the least, which a threshold found above it never lets through.
         */
        ORDER_KEYS,
        /**
         * A dimension built on the GPU: each row that passes writes its outputs and its group
         * contribution at its own row index ({@link RowWrites}); the others are left as they were.
         */
        BY_ROW
    }

    /**
     * An output column: the register written, {@code width} bytes a row at {@code values}, a NULL
     * flag byte a row at {@code nulls} (0: none written, the values cannot be NULL).
     */
    record Output(int register, long values, long nulls, int width) { }

    /**
     * The most groups the CLONED fold is used for: past them, a warp's rows spread over enough
     * groups that they seldom meet on one word.
     */
    static final int CLONED_GROUPS = 32;

    /** A kernel parameter: its name and C type in the generated source, and its value at launch (every one 8 bytes). */
    record Parameter(String name, String type, long value) { }

    private static final String COUNT = "long long";
    private static final String CONTRIBUTIONS = "const int32_t* __restrict__";
    private static final String WIDE_CONTRIBUTIONS = "const int64_t* __restrict__";
    private static final String CODES = "const uint32_t* __restrict__";
    private static final String TABLE = "const HashSlot* __restrict__";

    /** The kernel's parameters, in order: the source declares them and the launch passes them from this one list. */
    List<Parameter> parameters() {
        List<Parameter> out = new ArrayList<>();
        for (int c = 0; c < fact.size(); c++) {
            column(out, "fact" + c, fact.get(c));
        }
        for (int k = 0; k < keys.size(); k++) {
            out.add(new Parameter("key" + k, values(keys.get(k).width()), keys.get(k).values()));
            out.add(new Parameter("key" + k + "_rows", COUNT, keys.get(k).rows()));
        }
        for (int a = 0; a < answers.size(); a++) {
            out.add(new Parameter("answer" + a, values(answers.get(a).width()), answers.get(a).values()));
            out.add(new Parameter("answer" + a + "_rows", COUNT, answers.get(a).rows()));
        }
        for (int d = 0; d < dimensions.size(); d++) {
            Dimension dim = dimensions.get(d);
            out.add(new Parameter("dim" + d, dim.wide() ? WIDE_CONTRIBUTIONS : CONTRIBUTIONS, dim.contribution()));
            if (dim.isStaged()) {
                out.add(new Parameter("dim" + d + "_staged", COUNT, dim.staged()));
            }
            if (dim.clones() != null) {
                out.add(new Parameter("dim" + d + "_slots", CODES, dim.clones().slots()));
                out.add(new Parameter("dim" + d + "_map", CONTRIBUTIONS, dim.clones().map()));
                out.add(new Parameter("dim" + d + "_entries", COUNT, dim.clones().entries()));
            }
            if (dim.hashed() && dim.hash().matched()) {
                out.add(new Parameter("dim" + d + "_matches", CONTRIBUTIONS, dim.hash().matches()));
            } else if (dim.hashed()) {
                out.add(new Parameter("dim" + d + "_table", TABLE, dim.hash().device()));
                if (dim.hash().hybrid()) {
                    out.add(new Parameter("dim" + d + "_table_host", TABLE, dim.hash().host()));
                    out.add(new Parameter("dim" + d + "_split", COUNT, dim.hash().split()));
                }
                out.add(new Parameter("dim" + d + "_shift", COUNT, dim.hash().shift()));
            }
            // a hashed dimension's rows, the last of which a LEFT join's probe reads where it finds none
            out.add(new Parameter("dim" + d + "_range", COUNT, dim.range()));
        }
        for (int c = 0; c < dimColumns.size(); c++) {
            column(out, "dimcol" + c, dimColumns.get(c));
        }
        for (int o = 0; o < outputs.size(); o++) {
            Output output = outputs.get(o);
            out.add(new Parameter("out" + o, "int" + 8 * output.width() + "_t* __restrict__", output.values()));
            if (output.nulls() != 0) {
                out.add(new Parameter("out" + o + "_nulls", "uint8_t* __restrict__", output.nulls()));
            }
        }
        if (rowWrites != null) {
            out.add(new Parameter("contributions", rowWrites.wide() ? "int64_t* __restrict__" : "int32_t* __restrict__",
                    rowWrites.contributions()));
            out.add(new Parameter("contribution_multiplier", COUNT, rowWrites.multiplier()));
            out.add(new Parameter("digit_radix", COUNT, rowWrites.radix()));
            out.add(new Parameter("contribution_positions", COUNT, rowWrites.positions()));
        }
        if (clones != null) {
            if (clones.remapped()) {
                out.add(new Parameter("clone_slots", CODES, clones.slots()));
                out.add(new Parameter("clone_map", CONTRIBUTIONS, clones.map()));
            }
            out.add(new Parameter("clone_entries", COUNT, clones.entries()));
        }
        if (groupTable != null) {
            out.add(new Parameter("group_keys", "unsigned long long* __restrict__", groupTable.keys()));
            out.add(new Parameter("group_shift", COUNT, groupTable.shift()));
            out.add(new Parameter("group_probes", COUNT, groupTable.probes()));
        }
        for (int d = 0; d < distinctSets.size(); d++) {
            out.add(new Parameter("distinct" + d, "unsigned long long* __restrict__", distinctSets.get(d).entries()));
            out.add(new Parameter("distinct" + d + "_shift", COUNT, distinctSets.get(d).shift()));
        }
        if (order != null && accumulators == Accumulators.ROWS) {
            out.add(new Parameter("order_threshold", "unsigned long long", order.threshold()));
        }
        out.add(new Parameter("constants", "const int64_t* __restrict__", constants));
        out.add(new Parameter("status_word", "unsigned* __restrict__", status));
        out.add(new Parameter("acc", "uint64_t* __restrict__", acc));
        // a launch may run rows [first, rows) only: the kernel's launcher sets both
        out.add(new Parameter("first", COUNT, 0));
        out.add(new Parameter("rows", COUNT, rows));
        out.add(new Parameter("groups", COUNT, groups));
        return out;
    }

    private static void column(List<Parameter> out, String name, Column c) {
        out.add(new Parameter(name, values(c.width()), c.values()));
        if (c.nullable()) {
            out.add(new Parameter(name + "_nulls", "const uint8_t* __restrict__", c.nulls()));
        }
    }

    /** The C type of a column of {@code width}-byte signed values. */
    static String values(int width) {
        return "const int" + 8 * width + "_t* __restrict__";
    }
}
