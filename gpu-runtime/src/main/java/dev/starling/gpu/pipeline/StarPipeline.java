package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.util.List;
import java.util.Optional;

/**
 * A star pipeline compiled for the GPU, topped by an aggregation ({@code node} an AggregateNode)
 * or producing rows (a selection: {@code outputs}): the fact scan, the columns the kernel
 * reads from it, the dimensions (build sides of joins, run on the CPU), the program, and how
 * group keys and aggregate states, or output registers, map back to {@code node}'s output.
 * {@code factColumns} are the fact table columns the program loads, in the order of its
 * LOAD_FACT operands; {@code keyColumns} the dense-coded foreign key columns whose key values it
 * reads, in LOAD_KEY operand order; {@code answers} the expressions of fact string columns it reads
 * answered per dictionary entry, in LOAD_ANSWER operand order; {@code dimColumns} the dimension expressions it loads, in
 * LOAD_DIM operand order.
 */
public record StarPipeline(
        PlanNode node,
        ScanNode factScan,
        List<Integer> factColumns,
        List<Integer> keyColumns,
        List<StringFunction> answers,
        List<Dimension> dimensions,
        List<DimColumn> dimColumns,
        int[] code,
        long[] constants,
        List<Slot> slots,
        List<GroupKey> keys,
        List<CallStates> calls,
        List<Output> outputs) {

    /** No estimate of an aggregation's groups: a group hash table is sized for all there can be. */
    public static final long NO_ESTIMATE = Long.MAX_VALUE;

    /** The fact table, which {@link #factScan} reads. */
    public Table fact() {
        return factScan.table();
    }

    /** The aggregation this pipeline feeds (not for a selection). */
    AggregateNode aggregate() {
        return (AggregateNode) node;
    }

    /** The same pipeline with dimensions {@code dims} instead (built elsewhere, the same in the kernel's eyes). */
    public StarPipeline withDimensions(List<Dimension> dims) {
        return new StarPipeline(node, factScan, factColumns, keyColumns, answers, List.copyOf(dims), dimColumns, code,
                constants, slots, keys, calls, outputs);
    }

    /** At most how many groups the fact column keys form on their own (their distinct values, NULL one more). */
    public long factKeyGroups() {
        long groups = 1;
        for (GroupKey key : keys) {
            if (key.dimension() < 0) {
                long distinct;
                if (key.range() != null) {
                    distinct = key.range().range();
                } else if (key.answer() >= 0) {
                    distinct = key.factRadix(fact(), answers);
                } else {
                    ColumnStats stats = fact().column(key.factColumn()).stats();
                    distinct = Math.max(1, stats.distinct() + (stats.nulls() > 0 ? 1 : 0));
                }
                groups = groups > Long.MAX_VALUE / distinct ? Long.MAX_VALUE : groups * distinct;
            }
        }
        return groups;
    }

    /** The fewest dense groups its keys can form, as their column statistics tell (see {@link GroupLayout}). */
    public long leastGroups() {
        return GroupLayout.leastGroups(this);
    }

    /**
     * How the GPU groups this pipeline's rows, for EXPLAIN: by dense group id, with the states in
     * shared memory when they fit a block's share, else in device memory; past
     * {@link AggregateKernel#MAX_DENSE_GROUPS} ids, by hash, in a table first sized for the
     * {@code expectedGroups} the optimizer expects ({@link #NO_ESTIMATE}: none) when they are
     * fewer than there can be. Which one, the groups of the built dimensions decide when it runs;
     * the statistics may already tell that it hashes.
     */
    public String groupStrategy(long expectedGroups) {
        if (keys.isEmpty()) {
            return "one group";
        }
        long least = leastGroups();
        if (least > AggregateKernel.MAX_DENSE_GROUPS) {
            long most = Math.min(least, fact().rowCount());
            long first = AggregateKernel.tableSlots(AggregateKernel.guessedGroups(most, expectedGroups));
            String sized = first < groupTableSlots(least) ? first + " slots for the ~" + expectedGroups
                    + " groups expected, " + groupTableSlots(least) + " if more come" : groupTableSlots(least) + " slots";
            return "groups hashed by id into a device table of " + sized + " (at least " + least
                    + " dense ids, past " + AggregateKernel.MAX_DENSE_GROUPS + "), compacted before they come back";
        }
        return "groups by dense id (at least " + least + ", hashed past " + AggregateKernel.MAX_DENSE_GROUPS
                + "), states in shared memory when they fit " + AggregateKernel.SHARED_BYTES / 1024
                + " KB a block, else in device memory";
    }

    /**
     * Device memory its aggregate states take at least: 16 bytes a slot per dense id, or per slot of
     * a group hash table, with its 8-byte key words.
     */
    public long groupStateBytes() {
        long least = leastGroups();
        long perGroup = 16L * slots.size();
        return least > AggregateKernel.MAX_DENSE_GROUPS ? groupTableSlots(least) * (perGroup + 8) : least * perGroup;
    }

    /** The slots of a run's group hash table: room for {@code leastGroups} groups, or as many as fact rows. */
    private long groupTableSlots(long leastGroups) {
        return AggregateKernel.tableSlots(Math.min(leastGroups, fact().rowCount()));
    }

    /**
     * Why the GPU cannot hold this pipeline's groups, known before it runs (the column statistics
     * of its keys span more ids than 64 bits number, or a hash table would pass its most slots),
     * or empty when it may.
     */
    public Optional<String> tooManyGroups() {
        long least = leastGroups();
        if (least == Long.MAX_VALUE) {
            return Optional.of("group keys whose ranges pass 2^63 group ids by their statistics");
        }
        long slots = groupTableSlots(least);
        return least <= AggregateKernel.MAX_DENSE_GROUPS || slots <= AggregateKernel.MAX_TABLE_SLOTS ? Optional.empty()
                : Optional.of("a group hash table of " + slots + " slots, past the GPU's "
                        + AggregateKernel.MAX_TABLE_SLOTS);
    }

    /** The program position of the instruction that writes {@code register}, else -1. */
    int definition(int register) {
        for (int pc = 0; pc < code.length; pc += 4) {
            Opcode op = Opcode.values()[code[pc] & 0xff];
            boolean writes = op == Opcode.PROBE ? code[pc] >> 8 == ProbeMode.OUTER.ordinal()
                    : op != Opcode.FILTER && op != Opcode.GROUP_KEY;
            if (writes && code[pc + 1] == register) {
                return pc;
            }
        }
        return -1;
    }

    /**
     * Which of {@link #factColumns} hashed dimension {@code dim} is probed with, as loaded (its
     * position in that list), or -1 when the probe key is computed.
     */
    public int probeKeyColumn(int dim) {
        for (int pc = 0; pc < code.length; pc += 4) {
            if (Opcode.values()[code[pc] & 0xff] == Opcode.PROBE_HASH && code[pc + 3] == dim) {
                int loaded = definition(code[pc + 2]);
                return loaded >= 0 && Opcode.values()[code[loaded] & 0xff] == Opcode.LOAD_FACT ? code[loaded + 2] : -1;
            }
        }
        return -1;
    }

    /**
     * A join's build side. Dense: each row sits at the code in its column {@code keyColumn}, codes
     * below {@code range}. Hashed: rows are found by the value of their column {@code keyColumn},
     * which must be unique, through a hash table; {@code range} bounds how many rows the build can
     * have. Its rows are produced on the CPU, unless {@code gpuBuild} is not null: then the build
     * side (one table scanned, filtered and projected, its codes the table's rows) runs on the GPU
     * as that pipeline, which writes each row's group contribution and the columns the kernel
     * reads at the row's code, in device memory. {@code packedKey}: a hashed dimension's key packs
     * the several key columns of its join into one value ({@link PackedJoinKey}); {@code marks}: a
     * marking join's build side, built on the GPU, whose rows sit at the codes their foreign key
     * holds (many at one code), codes of a table the pipeline's rows are or point to: the dimension
     * tells whether a row is there, or, when the pipeline reads extremes of its columns
     * ({@link DimColumn#fold}), has every code and holds the extremes; or, over an aggregation by
     * one foreign key ({@link #foldsGroups}), holds its groups folded at their codes; {@code outer}:
     * a LEFT join's build side, after whose rows comes one whose columns are all NULL, which a row
     * that finds no match reads (built on the CPU, {@link PipelineInputs#dimensionRows}, or, for
     * folded groups, on the GPU); {@code presence}: a SEMI or ANTI join's build side that only tells
     * whether some row has a key (nothing reads its rows), so that a hashed one's key may repeat;
     * {@code valueDigit}: for a dimension built on the GPU whose group keys are not its table's key,
     * the digit its build computes from their values (else null); {@code folded}: for a marking one
     * that holds an aggregation's groups folded at their codes ({@link #foldsGroups}), that
     * aggregation, under the build side's projection and HAVING filters (else null); its columns
     * are then numbered as the aggregation's output.
     */
    public record Dimension(PlanNode build, int keyColumn, boolean hashed, boolean packedKey, long range,
                            boolean marks, boolean outer, boolean presence, StarPipeline gpuBuild,
                            ValueDigit valueDigit, AggregateNode folded) {
        public Dimension(PlanNode build, int keyColumn, boolean hashed, long range) {
            this(build, keyColumn, hashed, false, range, false, false, false, null, null, null);
        }

        public boolean builtOnGpu() {
            return gpuBuild != null;
        }

        /** How many positions a dense one's arrays have: one per code, and an outer one's row of NULLs after them. */
        public long densePositions() {
            return range + (outer ? 1 : 0);
        }

        /**
         * Whether it holds the groups of an aggregation by one foreign key, which its GPU build folds
         * at the codes their key holds: a code is present where a build row is, and each column is
         * an aggregate's value there (or the key's, its least).
         */
        public boolean foldsGroups() {
            return folded != null;
        }

        /** The same dimension with its rows produced on the CPU (not a marking one, which only the GPU builds). */
        public Dimension builtOnCpu() {
            return new Dimension(build, keyColumn, hashed, packedKey, range, false, outer, presence, null, null, null);
        }

        /** The same dimension whose build side, {@code projected}, gives its key as column 0. */
        Dimension projected(PlanNode projected) {
            return new Dimension(projected, 0, hashed, packedKey, range, marks, outer, presence, null, null, folded);
        }

        /** The same dimension built on the GPU by {@code pipeline} (null: on the CPU), its digit {@code digit}. */
        Dimension withGpuBuild(StarPipeline pipeline, ValueDigit digit) {
            return new Dimension(build, keyColumn, hashed, packedKey, range, marks, outer, presence, pipeline, digit,
                    folded);
        }
    }

    /**
     * A dimension digit computed from its group keys' values, each known to lie within a range,
     * instead of ranked over the built rows: the mixed-radix number ({@link MixedRadix}) of
     * {@code keys} (the first least significant), which the dimension's build program computes into
     * {@code register}.
     */
    public record ValueDigit(int register, List<KeyRange> keys) {
        public long radix() {
            return keys.stream().mapToLong(KeyRange::range).reduce(1, (a, b) -> a * b);
        }

        /** Each key's multiplier within the digit ({@link MixedRadix}: the first key's is 1). */
        long[] multipliers() {
            return MixedRadix.multipliers(keys.stream().mapToLong(KeyRange::range).toArray(), Long.MAX_VALUE).orElseThrow();
        }
    }

    /** Group key {@code key} (its index among the pipeline's), never NULL, from {@code min} to min + range - 1. */
    public record KeyRange(int key, long min, long range) { }

    /**
     * Values per code of dimension {@code dimension}: {@code expr} over its build columns, or, with
     * {@code fold} (else null), the fold of a build column ({@code expr} a reference to it) over
     * the build rows at the code ({@link ColumnOrigin.Dim#fold}).
     */
    record DimColumn(int dimension, Expr expr, AggKind fold) {
        DimColumn(int dimension, Expr expr) {
            this(dimension, expr, null);
        }
    }

    /**
     * An expression of fact string column {@code tableColumn} (its column 0 in {@code function})
     * that the host answers once per entry of the column's dictionary ({@code DictionaryAnswers})
     * and the kernel reads by each row's code: a predicate's TRUE, FALSE or NULL, or ({@code
     * ranks}) a group key's value as its rank among the values of all entries.
     */
    record StringFunction(int tableColumn, Expr function, boolean ranks) { }

    /**
     * An aggregate slot of the kernel: folds {@code kind} of the value in {@code register} (-1: none)
     * over the rows whose {@code filter} register is TRUE (-1: all); with {@code distinct} (else
     * null), only the rows that bring their group a value it has not had.
     */
    record Slot(AggKind kind, int register, int filter, Distinct distinct) {
        Slot(AggKind kind, int register, int filter) {
            this(kind, register, filter, null);
        }
    }

    /**
     * The values a DISTINCT aggregate has seen per group: pairs of a group and the value in
     * {@code register} (a double's canonical bits when {@code doubles}; a fact string column's
     * code), of the rows whose {@code filter} register is TRUE (-1: all) and whose value is not
     * NULL. {@code values}: at most how many distinct values the register holds, as the statistics
     * tell (else {@link Long#MAX_VALUE}); the kernel's set of pairs is sized by it.
     */
    record Distinct(int register, int filter, boolean doubles, long values) { }

    /** The DISTINCT aggregates' sets of (group, value) pairs among {@code slots}, in the order of the slots that first use them. */
    static List<Distinct> distincts(List<Slot> slots) {
        return slots.stream().map(Slot::distinct).filter(java.util.Objects::nonNull).distinct().toList();
    }

    /** Whether a DISTINCT aggregate folds only values new to their group (its rows cannot be split with the CPU workers). */
    public boolean hasDistinct() {
        return !distincts(slots).isEmpty();
    }

    /** Device memory the DISTINCT aggregates' sets of (group, value) pairs take at most. */
    public long distinctSetBytes() {
        return distincts(slots).stream()
                .mapToLong(d -> AggregateKernel.pairSetSlots(d, Long.MAX_VALUE, fact().rowCount()) * 16).sum();
    }

    /**
     * A group key. {@code dimension >= 0}: computed per dimension row by {@code expr} (over the
     * build columns) and ranked on the CPU; else fact column {@code factColumn}, whose stored value
     * (for a foreign key's {@code referenced} key values: its code) minus its minimum is the key's
     * digit, with constants at {@code constant} (minimum, range, multiplier) filled in at run time;
     * or, with {@code range} (else null), {@code expr} over the fact's columns (or the folds of a
     * dimension of folded groups), whose values lie in that range (TPC-H's {@code l_year}, Q13's
     * count of orders), its digit the value less the range's least; or, with
     * {@code answer} (else -1), {@code expr} over one fact string column, its digit the rank of
     * its value that answer {@code answer} gives the row's string (TPC-H Q22's country code).
     */
    record GroupKey(int dimension, Expr expr, int factColumn, int constant, boolean referenced, KeyValueRange range,
                    int answer) {
        /**
         * A fact key whose digits run from its least value to its greatest, then one for NULL, or a
         * ranked key's distinct values (NULL among them): how many.
         */
        long factRadix(Table fact, List<StringFunction> answers) {
            if (answer >= 0) {
                try {
                    return PipelineInputs.keyRanks(fact, answers.get(answer)).firstEntry().length;
                } catch (Unsupported e) {
                    // the run hands the pipeline back; until then, one value per entry and one for a NULL string
                    return fact.column(answers.get(answer).tableColumn()).dictionary().size() + 1L;
                }
            }
            if (range != null) {
                return range.range() == Long.MAX_VALUE ? Long.MAX_VALUE : range.range() + 1;
            }
            ColumnStats stats = fact.column(factColumn).stats();
            long values = ColumnStats.valuesBetween(stats.min(), stats.max());
            // a range past 2^63 leaves no digit room (the layout's product then saturates: too many groups)
            return stats.rows() == stats.nulls() ? 1 : values == 0 || values == Long.MAX_VALUE ? Long.MAX_VALUE : values + 1;
        }

        /** A fact key's least value (as stored: codes for strings; ranks start at 0). */
        long factMin(Table fact) {
            return answer >= 0 ? 0 : range != null ? range.min() : fact.column(factColumn).stats().min();
        }
    }

    /** A selection's output column, in the order of {@code node}'s output. */
    sealed interface Output {
        DataType type();

        /** A number, date or boolean the program computes into {@code register}. */
        record Value(int register, DataType type) implements Output { }

        /** A fact string column's codes, loaded into {@code register}, read through its dictionary. */
        record Codes(int register, int factColumn, DataType type) implements Output { }

        /**
         * Column {@code column} of dimension {@code dimension}'s built rows (a dimension-only
         * expression, computed on the CPU), at the row whose position the probe left in {@code register}.
         */
        record DimensionValue(int register, int dimension, int column, DataType type) implements Output { }

        record Constant(Object value, DataType type) implements Output { }
    }

    /** Where an aggregate call's states are: its count slot and (SUM, AVG, MIN, MAX) its value slot. */
    record CallStates(int countSlot, int valueSlot) { }
}
