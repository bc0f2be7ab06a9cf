package dev.starling.gpu.pipeline;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The aggregate folds of a star pipeline kernel, in CUDA C over the states of {@code fold.cuh}:
 * every slot owns two 64-bit words per group at {@code acc + (slot * groups + group) * 2}. Scalar
 * aggregates keep per-thread partials in registers and fold once per warp at the end; grouped ones
 * fold each row with atomics, into a block's shared copy when it fits. A DISTINCT aggregate's
 * slots fold only the rows that added their (group, value) pair to its set ({@code distinct_set.cuh}).
 */
final class AggregateSource {
    private final CudaWriter out;
    private final List<StarPipeline.Slot> slots;
    /** Per DISTINCT set, per tile item: whether the row brought its group a new value (set by {@link #claimDistinct}). */
    private final Map<StarPipeline.Distinct, String[]> fresh = new HashMap<>();
    private String[] low;
    private String[] high;

    AggregateSource(CudaWriter out, List<StarPipeline.Slot> slots) {
        this.out = out;
        this.slots = slots;
    }

    /** Each slot's states, {@code count} groups from {@code base}, the slots end to end. */
    String[] slotBases(String base, String count) {
        return arrayBases("uint64_t*", base, count + " * 2");
    }

    /** Each count slot's 32-bit counters, {@code entries} from {@code base}. */
    String[] counterBases(String base, String entries) {
        return arrayBases("uint32_t*", base, entries);
    }

    private String[] arrayBases(String type, String base, String stride) {
        String[] bases = new String[slots.size()];
        for (int s = 0; s < bases.length; s++) {
            bases[s] = out.let(type, String.format("(%s)%s + %dll * %s", type, base, s, stride));
        }
        return bases;
    }

    /** Scalar aggregates: this thread's partials start at each slot's identity. */
    void startPartials() {
        low = new String[slots.size()];
        high = new String[slots.size()];
        for (int s = 0; s < slots.size(); s++) {
            low[s] = out.let("uint64_t", literal(slots.get(s).kind().identity()));
            high[s] = out.let("uint64_t", "0");
        }
    }

    /** Scalar aggregates: folds the tile's counting rows into this thread's partials. */
    void accumulate(RowProgramSource rows) {
        for (int i = 0; i < rows.alive.length; i++) {
            for (int s = 0; s < slots.size(); s++) {
                StarPipeline.Slot slot = slots.get(s);
                String counts = counts(rows, slot, i);
                String v = slot.register() < 0 ? null : rows.value[slot.register()][i];
                String l = low[s];
                switch (slot.kind()) {
                    case COUNT -> out.where(counts, "%s += 1;", l);
                    case SUM_I -> {
                        String x = out.let("long long", counts.equals(CudaWriter.TRUE) ? v : counts + " ? " + v + " : 0");
                        out.line("add128(%s, %s, (uint64_t)%s, signWord(%s));", l, high[s], x, x);
                    }
                    case SUM_F -> out.where(counts, "%s = asBits(__dadd_rn(asDouble(%s), asDouble(%s)));", l, l, v);
                    case MIN_I -> out.where(counts, "%s = min((long long)%s, %s);", l, l, v);
                    case MAX_I -> out.where(counts, "%s = max((long long)%s, %s);", l, l, v);
                    case MIN_F -> out.where(counts, "if (asDouble(%s) < asDouble(%s)) %s = %s;", v, l, l, v);
                    case MAX_F -> out.where(counts, "if (asDouble(%s) > asDouble(%s)) %s = %s;", v, l, l, v);
                }
            }
        }
    }

    /**
     * Scalar aggregates, after the last tile: the warp combines each slot's partials and its first
     * lane folds them into the global states. Every lane must run it.
     */
    void foldWarp(String lane, String[] globalSlots) {
        for (int s = 0; s < slots.size(); s++) {
            reduceWarp(slots.get(s).kind(), low[s], high[s]);
        }
        out.open("if (%s == 0)", lane);
        for (int s = 0; s < slots.size(); s++) {
            fold(slots.get(s).kind(), globalSlots[s], low[s], high[s]);
        }
        out.close();
    }

    /** Combines the partial (low, high) of a slot of {@code kind} across the warp: every lane ends with the total. */
    private void reduceWarp(AggKind kind, String low, String high) {
        switch (kind) {
            case COUNT -> out.line("%s = warpCount(%s);", low, low);
            case SUM_I -> out.line("warpSum128(%s, %s);", low, high);
            case SUM_F -> out.line("%s = warpSumDouble(%s);", low, low);
            case MIN_I -> out.line("%s = warpMin(%s);", low, low);
            case MAX_I -> out.line("%s = warpMax(%s);", low, low);
            case MIN_F -> out.line("%s = warpExtremeDouble<true>(%s);", low, low);
            case MAX_F -> out.line("%s = warpExtremeDouble<false>(%s);", low, low);
        }
    }

    /** Grouped aggregates: folds each counting row of the tile into its group's states. */
    void foldRows(RowProgramSource rows, String[] slotBases) {
        for (int i = 0; i < rows.alive.length; i++) {
            for (int s = 0; s < slots.size(); s++) {
                StarPipeline.Slot slot = slots.get(s);
                String counts = counts(rows, slot, i);
                if (counts.equals(CudaWriter.FALSE)) {
                    continue;
                }
                String v = slot.register() < 0 ? null : rows.value[slot.register()][i];
                out.open(counts.equals(CudaWriter.TRUE) ? "" : "if (" + counts + ")");
                String at = slotBases[s] + " + 2 * " + rows.group[i];
                switch (slot.kind()) {
                    case COUNT -> fold(AggKind.COUNT, at, "1", null);
                    case SUM_I -> fold(AggKind.SUM_I, at, "(uint64_t)" + v, "signWord(" + v + ")");
                    default -> fold(slot.kind(), at, v, null);
                }
                out.close();
            }
        }
    }

    /**
     * Grouped aggregates by hash: each live row claims its group's slot in the table at
     * {@code keys}, looking at most {@code probes} slots far, and folds there (its group id
     * becomes the slot). A row that finds no slot marks the table full, which hands the pipeline
     * back or has it run again with a larger table.
     */
    void claimGroupSlots(RowProgramSource rows, String keys, String shift, String probes) {
        for (int i = 0; i < rows.alive.length; i++) {
            String slot = out.let("long long", String.format("%s ? groupSlot(%s, (int)%s, %s, (uint64_t)%s) : 0",
                    rows.alive[i], keys, shift, rows.group[i], probes));
            String full = out.bool(slot + " < 0");
            out.where(out.and(rows.alive[i], full), "status |= %s;", KernelStatus.GROUP_TABLE_FULL.macro());
            rows.alive[i] = out.and(rows.alive[i], CudaWriter.not(full));
            rows.group[i] = slot;
        }
    }

    /**
     * DISTINCT aggregates, once each row's group is final: each counting row adds its (group,
     * value) pair to the set of every DISTINCT slot set ({@code distinct<d>}), and folds into that
     * set's slots only where the pair is new. A row that finds a set full hands the pipeline back.
     */
    void claimDistinct(RowProgramSource rows, List<StarPipeline.Distinct> distincts) {
        for (int d = 0; d < distincts.size(); d++) {
            StarPipeline.Distinct seen = distincts.get(d);
            String[] added = new String[rows.alive.length];
            for (int i = 0; i < rows.alive.length; i++) {
                String counts = rows.counts(new StarPipeline.Slot(AggKind.COUNT, seen.register(), seen.filter()), i);
                String value = rows.value[seen.register()][i];
                String result = out.let("int", String.format("%s ? addPair(distinct%d, (int)distinct%d_shift, %s, %s) : 0",
                        counts, d, d, rows.group[i], seen.doubles() ? "distinctDoubleBits(" + value + ")" : value));
                out.where(out.bool(result + " < 0"), "status |= %s;", KernelStatus.DISTINCT_SET_FULL.macro());
                added[i] = out.bool(result + " > 0");
            }
            fresh.put(seen, added);
        }
    }

    /** Whether row {@code i} folds into {@code slot}: it counts, and for a DISTINCT slot, its pair was new. */
    private String counts(RowProgramSource rows, StarPipeline.Slot slot, int i) {
        String counts = rows.counts(slot, i);
        return slot.distinct() == null ? counts : out.and(counts, fresh.get(slot.distinct())[i]);
    }

    /**
     * Cloned states ({@code fold.cuh}): the block sets each slot's {@code states} clones, first
     * words then second, to (its identity, 0), then waits.
     */
    void initClones(String[] cloneSlots, String states) {
        for (int s = 0; s < slots.size(); s++) {
            out.line("initClones(%s, %s, %s);", cloneSlots[s], states, literal(slots.get(s).kind().identity()));
        }
        out.line("__syncthreads();");
    }

    /**
     * Grouped aggregates over very few groups: each counting row folds into the clone its lane
     * picks of its group's states ({@code copies} of each, {@code states} in all per slot), so
     * that a warp's rows of one group update different words; only a double's MIN or MAX (a
     * compare-and-swap loop) waits for its atomic.
     */
    void foldRowsIntoClones(RowProgramSource rows, String[] cloneSlots, String states, String copies, String lane) {
        String pick = out.let("const int", String.format("%s & (%s - 1)", lane, copies));
        for (int i = 0; i < rows.alive.length; i++) {
            String clone = out.let("long long", String.format("%s * %s + %s", rows.group[i], copies, pick));
            for (int s = 0; s < slots.size(); s++) {
                StarPipeline.Slot slot = slots.get(s);
                String counts = counts(rows, slot, i);
                if (counts.equals(CudaWriter.FALSE)) {
                    continue;
                }
                String v = slot.register() < 0 ? null : rows.value[slot.register()][i];
                String at = cloneSlots[s] + " + " + clone;
                out.open(counts.equals(CudaWriter.TRUE) ? "" : "if (" + counts + ")");
                switch (slot.kind()) {
                    case COUNT -> fold(AggKind.COUNT, at, "1", null);
                    case SUM_I -> out.line("foldSplitSum(%s, %s, %s);", at, states, v);
                    default -> fold(slot.kind(), at, v, null);
                }
                out.close();
            }
        }
    }

    /**
     * Cloned states, after the last tile: merges the clones of each group with rows (slot 0 counts
     * them) and folds the result into the global states.
     */
    void mergeClones(String[] cloneSlots, String[] globalSlots, String groups, String states, String copies) {
        out.line("__syncthreads();");
        out.open("for (long long g = threadIdx.x; g < %s; g += blockDim.x)", groups);
        String clone = out.let("const long long", "g * " + copies);
        String rows = out.let("const uint64_t", String.format("mergedCount(%s + %s, %s)", cloneSlots[0], clone, copies));
        out.open("if (%s != 0)", rows);
        for (int s = 0; s < slots.size(); s++) {
            String from = cloneSlots[s] + " + " + clone;
            String at = globalSlots[s] + " + 2 * g";
            AggKind kind = slots.get(s).kind();
            switch (kind) {
                case COUNT -> fold(kind, at, s == 0 ? rows : String.format("mergedCount(%s, %s)", from, copies), null);
                case SUM_I -> {
                    String low = out.let("uint64_t", "0");
                    String high = out.let("uint64_t", "0");
                    out.line("mergedSplitSum(%s, %s, %s, %s, %s);", from, states, copies, low, high);
                    fold(kind, at, low, high);
                }
                case SUM_F -> fold(kind, at, String.format("mergedSumDouble(%s, %s)", from, copies), null);
                case MIN_I -> fold(kind, at, String.format("mergedExtreme<true>(%s, %s)", from, copies), null);
                case MAX_I -> fold(kind, at, String.format("mergedExtreme<false>(%s, %s)", from, copies), null);
                case MIN_F -> fold(kind, at, String.format("mergedExtremeDouble<true>(%s, %s)", from, copies), null);
                case MAX_F -> fold(kind, at, String.format("mergedExtremeDouble<false>(%s, %s)", from, copies), null);
            }
        }
        out.close();
        out.close();
    }

    /** Shared states: the block sets them to their identities, then waits. */
    void initShared(String[] sharedSlots, String groups) {
        for (int s = 0; s < slots.size(); s++) {
            out.line("initStates(%s, %s, %s);", sharedSlots[s], groups, literal(slots.get(s).kind().identity()));
        }
        out.line("__syncthreads();");
    }

    /** Shared states, after the last tile: folds the block's groups that have rows (slot 0 counts them) into the global states. */
    void mergeShared(String[] sharedSlots, String[] globalSlots, String groups) {
        out.line("__syncthreads();");
        out.open("for (long long g = threadIdx.x; g < %s; g += blockDim.x)", groups);
        out.open("if (%s[2 * g] != 0)", sharedSlots[0]);
        for (int s = 0; s < slots.size(); s++) {
            fold(slots.get(s).kind(), globalSlots[s] + " + 2 * g", sharedSlots[s] + "[2 * g]", sharedSlots[s] + "[2 * g + 1]");
        }
        out.close();
        out.close();
    }

    /** Counters: the block zeroes them, then waits. */
    void initCounters(String[] counterSlots, String entries) {
        out.open("for (long long e = threadIdx.x; e < %s; e += blockDim.x)", entries);
        for (String base : counterSlots) {
            out.line("%s[e] = 0;", base);
        }
        out.close();
        out.line("__syncthreads();");
    }

    /**
     * Counters: each counting row adds one at its entry, the slot a clone layout gives the row
     * ({@code slotColumn}, per fact row) or, without one (null), its group.
     */
    void foldCounters(RowProgramSource rows, String[] counterSlots, String slotColumn) {
        for (int i = 0; i < rows.alive.length; i++) {
            String entry = slotColumn == null ? rows.group[i]
                    : out.let("long long", String.format("loadValue(%s, %s, %s)", slotColumn, rows.row[i], rows.alive[i]));
            for (int s = 0; s < slots.size(); s++) {
                out.where(counts(rows, slots.get(s), i), "atomicAdd(%s + %s, 1u);", counterSlots[s], entry);
            }
        }
    }

    /**
     * Counters, after the last tile: each entry with rows (slot 0 counts every row) adds its counts
     * to its group: the one the clone map ({@code map}) gives it, or without one (null) its own.
     */
    void mergeCounters(String[] counterSlots, String[] globalSlots, String entries, String map) {
        out.line("__syncthreads();");
        out.open("for (long long e = threadIdx.x; e < %s; e += blockDim.x)", entries);
        out.open("if (%s[e] != 0)", counterSlots[0]);
        String group = map == null ? "e" : out.let("long long", "__ldg(" + map + " + e)");
        for (int s = 0; s < slots.size(); s++) {
            out.line("foldCount(%s + 2 * %s, %s[e]);", globalSlots[s], group, counterSlots[s]);
        }
        out.close();
        out.close();
    }

    /** Folds the partial (w0, w1) of a slot of {@code kind} into the state at {@code at} (fold.cuh). */
    private void fold(AggKind kind, String at, String w0, String w1) {
        switch (kind) {
            case COUNT -> out.line("foldCount(%s, %s);", at, w0);
            case SUM_I -> out.line("foldSum(%s, %s, %s);", at, w0, w1 == null ? "0" : w1);
            case SUM_F -> out.line("foldSumDouble(%s, (long long)%s);", at, w0);
            case MIN_I -> out.line("foldMin(%s, (long long)%s);", at, w0);
            case MAX_I -> out.line("foldMax(%s, (long long)%s);", at, w0);
            case MIN_F -> out.line("foldExtremeDouble<true>(%s, (long long)%s);", at, w0);
            case MAX_F -> out.line("foldExtremeDouble<false>(%s, (long long)%s);", at, w0);
        }
    }

    private static String literal(long word) {
        return String.format("0x%016xull", word);
    }
}
