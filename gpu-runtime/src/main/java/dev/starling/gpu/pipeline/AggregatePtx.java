package dev.starling.gpu.pipeline;

import java.util.List;

/**
 * The aggregate folds of a star pipeline kernel, in PTX. Every slot owns two 64-bit words per
 * group at {@code acc + (slot * groups + group) * 16}: integer sums are exact 128-bit two's
 * complement (low word, high word) so no partial sum can wrap, and the host checks that each
 * total fits 64 bits; counts, double sums, MIN and MAX use the low word. Scalar aggregates keep
 * per-thread partials in registers and fold once per warp at the end; grouped ones fold each row
 * with atomics, into a block's shared copy when it fits.
 */
final class AggregatePtx {
    private static final long MIN_I_IDENTITY = Long.MAX_VALUE;
    private static final long MAX_I_IDENTITY = Long.MIN_VALUE;

    private final Ptx ptx;
    private final List<StarPipeline.Slot> slots;
    private String[] low;
    private String[] high;

    AggregatePtx(Ptx ptx, List<StarPipeline.Slot> slots) {
        this.ptx = ptx;
        this.slots = slots;
    }

    static long identity(AggKind kind) {
        return switch (kind) {
            case MIN_I -> MIN_I_IDENTITY;
            case MAX_I -> MAX_I_IDENTITY;
            case MIN_F -> Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
            case MAX_F -> Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);
            default -> 0;
        };
    }

    /** Each slot's words, {@code count} groups from {@code base}: base + slot * groups * 16. */
    String[] slotBases(String base, String groups) {
        return arrayBases(base, groups, 16);
    }

    /** Each count slot's 32-bit counters, {@code entries} from {@code base}: base + slot * entries * 4. */
    String[] counterBases(String base, String entries) {
        return arrayBases(base, entries, 4);
    }

    /** Where each slot's array of {@code count} elements of {@code width} bytes starts, the arrays end to end from {@code base}. */
    private String[] arrayBases(String base, String count, int width) {
        String[] out = new String[slots.size()];
        for (int s = 0; s < out.length; s++) {
            out[s] = ptx.b64();
            ptx.op("mul.lo.s64 %s, %s, %d", out[s], count, (long) s * width);
            ptx.op("add.s64 %s, %s, %s", out[s], out[s], base);
        }
        return out;
    }

    /** Scalar aggregates: this thread's partials start at each slot's identity. */
    void startPartials() {
        low = new String[slots.size()];
        high = new String[slots.size()];
        for (int s = 0; s < slots.size(); s++) {
            low[s] = ptx.b64();
            high[s] = ptx.b64();
            ptx.op("mov.b64 %s, 0x%016x", low[s], identity(slots.get(s).kind()));
            ptx.op("mov.b64 %s, 0", high[s]);
        }
    }

    /** Scalar aggregates: folds the tile's counting rows into this thread's partials. */
    void accumulate(RowProgramPtx rows) {
        for (int i = 0; i < rows.alive.length; i++) {
            for (int s = 0; s < slots.size(); s++) {
                StarPipeline.Slot slot = slots.get(s);
                String counts = rows.counts(slot, i);
                String v = slot.register() < 0 ? null : rows.value[slot.register()][i];
                switch (slot.kind()) {
                    case COUNT -> ptx.opIf(counts, "add.s64 %s, %s, 1", low[s], low[s]);
                    case SUM_I -> {
                        String x = ptx.b64();
                        String sign = ptx.b64();
                        ptx.op("selp.b64 %s, %s, 0, %s", x, v, ptx.plain(counts));
                        ptx.op("shr.s64 %s, %s, 63", sign, x);
                        addWide(low[s], high[s], x, sign);
                    }
                    default -> combine(slot.kind(), counts, low[s], v);
                }
            }
        }
    }

    /**
     * Scalar aggregates, after the last tile: the warp reduces each slot's partials by butterfly
     * exchange and its first lane folds them into the global words. Every lane must run it.
     */
    void foldWarp(String lane, String[] globalSlots) {
        for (int s = 0; s < slots.size(); s++) {
            reduceWarp(slots.get(s).kind(), low[s], high[s]);
        }
        String first = ptx.pred();
        ptx.op("setp.eq.u32 %s, %s, 0", first, lane);
        for (int s = 0; s < slots.size(); s++) {
            foldPartial("global", first, globalSlots[s], slots.get(s).kind(), low[s], high[s]);
        }
    }

    /** Combines the partial (low, high) of a slot of {@code kind} across the warp: every lane ends with the total. */
    private void reduceWarp(AggKind kind, String low, String high) {
        for (int offset = 16; offset > 0; offset >>= 1) {
            String otherLow = shuffle(low, offset);
            if (kind == AggKind.SUM_I) {
                addWide(low, high, otherLow, shuffle(high, offset));
            } else {
                combine(kind, Ptx.TRUE, low, otherLow);
            }
        }
    }

    /** Grouped aggregates: folds each counting row of the tile into its group's words. */
    void foldRows(RowProgramPtx rows, String space, String[] slotBases) {
        for (int i = 0; i < rows.alive.length; i++) {
            for (int s = 0; s < slots.size(); s++) {
                StarPipeline.Slot slot = slots.get(s);
                String counts = rows.counts(slot, i);
                String at = ptx.address(slotBases[s], rows.group[i], 16);
                String v = slot.register() < 0 ? null : rows.value[slot.register()][i];
                String w0 = v;
                String w1 = null;
                if (slot.kind() == AggKind.COUNT) {
                    w0 = ptx.b64();
                    ptx.op("mov.b64 %s, 1", w0);
                } else if (slot.kind() == AggKind.SUM_I) {
                    w1 = ptx.b64();
                    ptx.op("shr.s64 %s, %s, 63", w1, v);
                }
                foldPartial(space, counts, at, slot.kind(), w0, w1);
            }
        }
    }

    /**
     * Grouped aggregates over few groups: per tile item, the warp takes the groups its live rows
     * fall in one at a time, reduces each slot over that group's rows by butterfly exchange, and
     * its first lane folds the totals, one shared atomic per group present instead of one per row
     * (rows crowding into a few groups would otherwise serialize on the same words).
     */
    void foldRowsByWarpGroup(RowProgramPtx rows, String[] sharedSlots, String lane) {
        for (int i = 0; i < rows.alive.length; i++) {
            String pending = ptx.b32();
            ptx.op("vote.sync.ballot.b32 %s, %s, 0xffffffff", pending, ptx.plain(rows.alive[i]));
            String top = ptx.label("warp_group");
            String done = ptx.label("warp_groups_done");
            ptx.place(top);
            String none = ptx.pred();
            ptx.op("setp.eq.u32 %s, %s, 0", none, pending);
            ptx.op("@%s bra %s", none, done);
            String leader = ptx.b32();
            ptx.op("bfind.u32 %s, %s", leader, pending);
            String group = shuffleFrom(rows.group[i], leader);
            String same = ptx.pred();
            ptx.op("setp.eq.s64 %s, %s, %s", same, rows.group[i], group);
            String mine = ptx.and(same, rows.alive[i]);
            String taken = ptx.b32();
            ptx.op("vote.sync.ballot.b32 %s, %s, 0xffffffff", taken, ptx.plain(mine));
            ptx.op("and.b32 %s, %s, %s", taken, pending, taken);
            ptx.op("xor.b32 %s, %s, %s", pending, pending, taken);
            String first = ptx.pred();
            ptx.op("setp.eq.u32 %s, %s, 0", first, lane);
            for (int s = 0; s < slots.size(); s++) {
                StarPipeline.Slot slot = slots.get(s);
                String counts = ptx.plain(ptx.and(mine, rows.counts(slot, i)));
                String v = slot.register() < 0 ? null : rows.value[slot.register()][i];
                String w0 = ptx.b64();
                String w1 = ptx.b64();
                switch (slot.kind()) {
                    case COUNT -> ptx.op("selp.b64 %s, 1, 0, %s", w0, counts);
                    default -> ptx.op("selp.b64 %s, %s, 0x%016x, %s", w0, v, identity(slot.kind()), counts);
                }
                if (slot.kind() == AggKind.SUM_I) {
                    ptx.op("shr.s64 %s, %s, 63", w1, w0);
                } else {
                    ptx.op("mov.b64 %s, 0", w1);
                }
                reduceWarp(slot.kind(), w0, w1);
                String at = ptx.address(sharedSlots[s], group, 16);
                foldPartial("shared", first, at, slot.kind(), w0, w1);
            }
            ptx.op("bra %s", top);
            ptx.place(done);
        }
    }

    /** Shared accumulators: every thread of the block sets its share of the words to their identities. */
    void initShared(String[] sharedSlots, String tid, String ntid, String groups) {
        for (int s = 0; s < slots.size(); s++) {
            String identity = ptx.b64();
            String zero = ptx.b64();
            ptx.op("mov.b64 %s, 0x%016x", identity, identity(slots.get(s).kind()));
            ptx.op("mov.b64 %s, 0", zero);
            int slot = s;
            ptx.strided(tid, ntid, groups, g -> {
                String at = ptx.address(sharedSlots[slot], g, 16);
                ptx.op("st.shared.b64 [%s], %s", at, identity);
                ptx.op("st.shared.b64 [%s+8], %s", at, zero);
            });
        }
        ptx.op("bar.sync 0");
    }

    /** Shared accumulators, after the last tile: folds the block's groups that have rows (slot 0 counts them) into the global words. */
    void mergeShared(String[] sharedSlots, String[] globalSlots, String tid, String ntid, String groups) {
        ptx.op("bar.sync 0");
        ptx.strided(tid, ntid, groups, g -> {
            String offset = ptx.b64();
            ptx.op("shl.b64 %s, %s, 4", offset, g);
            String count = ptx.b64();
            String at = ptx.b64();
            ptx.op("add.s64 %s, %s, %s", at, sharedSlots[0], offset);
            ptx.op("ld.shared.b64 %s, [%s]", count, at);
            String empty = ptx.pred();
            ptx.op("setp.eq.u64 %s, %s, 0", empty, count);
            String has = Ptx.not(empty);
            for (int s = 0; s < slots.size(); s++) {
                String from = ptx.b64();
                String to = ptx.b64();
                String w0 = ptx.b64();
                String w1 = ptx.b64();
                ptx.op("add.s64 %s, %s, %s", from, sharedSlots[s], offset);
                ptx.op("add.s64 %s, %s, %s", to, globalSlots[s], offset);
                ptx.opIf(has, "ld.shared.b64 %s, [%s]", w0, from);
                ptx.opIf(has, "ld.shared.b64 %s, [%s+8]", w1, from);
                foldPartial("global", has, to, slots.get(s).kind(), w0, w1);
            }
        });
    }

    /** Counters: every thread of the block zeroes its share, then the block waits. */
    void initCounters(String[] counterSlots, String tid, String ntid, String entries) {
        for (String base : counterSlots) {
            ptx.strided(tid, ntid, entries, e -> {
                String at = ptx.address(base, e, 4);
                ptx.op("st.shared.b32 [%s], 0", at);
            });
        }
        ptx.op("bar.sync 0");
    }

    /**
     * Counters: each counting row adds one at its entry, the slot a clone layout gives the row
     * ({@code slotColumn}, per fact row) or, without one (null), its group.
     */
    void foldCounters(RowProgramPtx rows, String[] counterSlots, String slotColumn) {
        for (int i = 0; i < rows.alive.length; i++) {
            String entry = rows.group[i];
            if (slotColumn != null) {
                entry = ptx.b64();
                String entry32 = ptx.b32();
                ptx.op("mov.b32 %s, 0", entry32);
                ptx.opIf(rows.alive[i], "ld.global.nc.u32 %s, [%s]", entry32, ptx.address(slotColumn, rows.row[i], 4));
                ptx.op("cvt.u64.u32 %s, %s", entry, entry32);
            }
            for (int s = 0; s < slots.size(); s++) {
                ptx.opIf(rows.counts(slots.get(s), i), "red.shared.add.u32 [%s], 1", ptx.address(counterSlots[s], entry, 4));
            }
        }
    }

    /**
     * Counters, after the last tile: each entry with rows (slot 0 counts every row) adds its counts
     * to its group: the one the clone map ({@code map}) gives it, or without one (null) its own.
     */
    void mergeCounters(String[] counterSlots, String[] globalSlots, String tid, String ntid, String entries, String map) {
        ptx.op("bar.sync 0");
        ptx.strided(tid, ntid, entries, e -> {
            String[] counts = new String[slots.size()];
            for (int s = 0; s < counts.length; s++) {
                String count32 = ptx.b32();
                ptx.op("ld.shared.u32 %s, [%s]", count32, ptx.address(counterSlots[s], e, 4));
                counts[s] = ptx.b64();
                ptx.op("cvt.u64.u32 %s, %s", counts[s], count32);
            }
            String has = ptx.pred();
            ptx.op("setp.ne.u64 %s, %s, 0", has, counts[0]);
            String group = e;
            if (map != null) {
                String group32 = ptx.b32();
                ptx.op("mov.b32 %s, 0", group32);
                ptx.opIf(has, "ld.global.nc.s32 %s, [%s]", group32, ptx.address(map, e, 4));
                group = ptx.b64();
                ptx.op("cvt.s64.s32 %s, %s", group, group32);
            }
            for (int s = 0; s < counts.length; s++) {
                ptx.opIf(has, "red.global.add.u64 [%s], %s", ptx.address(globalSlots[s], group, 16), counts[s]);
            }
        });
    }

    /** (low, high) += (x, xHigh) as 128-bit integers. */
    private void addWide(String low, String high, String x, String xHigh) {
        ptx.op("add.cc.u64 %s, %s, %s", low, low, x);
        ptx.op("addc.u64 %s, %s, %s", high, high, xHigh);
    }

    /** Where {@code guard} holds, combines the value {@code v} into the partial {@code low} of a slot of {@code kind} other than SUM_I. */
    private void combine(AggKind kind, String guard, String low, String v) {
        switch (kind) {
            case COUNT -> ptx.opIf(guard, "add.s64 %s, %s, %s", low, low, v);
            case SUM_F -> {
                String a = asDouble(low);
                ptx.opIf(guard, "add.rn.f64 %s, %s, %s", a, a, asDouble(v));
                ptx.op("mov.b64 %s, %s", low, a);
            }
            case MIN_I -> ptx.opIf(guard, "min.s64 %s, %s, %s", low, low, v);
            case MAX_I -> ptx.opIf(guard, "max.s64 %s, %s, %s", low, low, v);
            case MIN_F, MAX_F -> {
                String better = ptx.pred();
                ptx.op("setp.%s.f64 %s, %s, %s", kind == AggKind.MIN_F ? "lt" : "gt", better, asDouble(v), asDouble(low));
                ptx.opIf(ptx.and(better, guard), "mov.b64 %s, %s", low, v);
            }
            case SUM_I -> throw new IllegalStateException("SUM_I partials add as 128-bit integers");
        }
    }

    /** Where {@code guard} holds, folds the partial (w0, w1) of a slot of {@code kind} into the words at {@code at} with atomics. */
    private void foldPartial(String space, String guard, String at, AggKind kind, String w0, String w1) {
        switch (kind) {
            case COUNT -> ptx.opIf(guard, "red.%s.add.u64 [%s], %s", space, at, w0);
            case SUM_I -> {
                String old = ptx.b64();
                String sum = ptx.b64();
                String carry = ptx.b64();
                String up = ptx.b64();
                ptx.op("mov.b64 %s, 0", old);
                ptx.opIf(guard, "atom.%s.add.u64 %s, [%s], %s", space, old, at, w0);
                ptx.op("add.u64 %s, %s, %s", sum, old, w0);
                String wrapped = ptx.pred();
                ptx.op("setp.lt.u64 %s, %s, %s", wrapped, sum, old);
                ptx.op("selp.u64 %s, 1, 0, %s", carry, wrapped);
                ptx.op("add.u64 %s, %s, %s", up, w1, carry);
                String nonZero = ptx.pred();
                ptx.op("setp.ne.u64 %s, %s, 0", nonZero, up);
                ptx.opIf(ptx.and(nonZero, guard), "red.%s.add.u64 [%s+8], %s", space, at, up);
            }
            case SUM_F -> ptx.opIf(guard, "red.%s.add.f64 [%s], %s", space, at, asDouble(w0));
            case MIN_I -> ptx.opIf(guard, "red.%s.min.s64 [%s], %s", space, at, w0);
            case MAX_I -> ptx.opIf(guard, "red.%s.max.s64 [%s], %s", space, at, w0);
            case MIN_F, MAX_F -> compareAndSwapLoop(space, guard, at, kind == AggKind.MIN_F ? "lt" : "gt", w0);
        }
    }

    /** Doubles have no atomic MIN/MAX: swap while the value still improves on what the word holds. */
    private void compareAndSwapLoop(String space, String guard, String at, String better, String v) {
        String done = ptx.label("cas_done");
        String top = ptx.label("cas");
        String old = ptx.b64();
        String seen = ptx.b64();
        ptx.opIf(Ptx.not(guard), "bra %s", done);
        ptx.op("ld.volatile.%s.b64 %s, [%s]", space, old, at);
        ptx.place(top);
        String improves = ptx.pred();
        ptx.op("setp.%s.f64 %s, %s, %s", better, improves, asDouble(v), asDouble(old));
        ptx.op("@!%s bra %s", improves, done);
        ptx.op("atom.%s.cas.b64 %s, [%s], %s, %s", space, seen, at, old, v);
        String lost = ptx.pred();
        ptx.op("setp.ne.u64 %s, %s, %s", lost, seen, old);
        ptx.op("mov.b64 %s, %s", old, seen);
        ptx.op("@%s bra %s", lost, top);
        ptx.place(done);
    }

    /** Lane {@code from}'s value of a 64-bit register. */
    private String shuffleFrom(String word, String from) {
        return shuffle(word, "idx", from);
    }

    /** The value of a 64-bit register in the lane whose index differs from this one's in bit {@code offset}. */
    private String shuffle(String word, int offset) {
        return shuffle(word, "bfly", Integer.toString(offset));
    }

    private String shuffle(String word, String mode, String lane) {
        String lo = ptx.b32();
        String hi = ptx.b32();
        String out = ptx.b64();
        ptx.op("mov.b64 {%s, %s}, %s", lo, hi, word);
        ptx.op("shfl.sync.%s.b32 %s, %s, %s, 31, 0xffffffff", mode, lo, lo, lane);
        ptx.op("shfl.sync.%s.b32 %s, %s, %s, 31, 0xffffffff", mode, hi, hi, lane);
        ptx.op("mov.b64 %s, {%s, %s}", out, lo, hi);
        return out;
    }

    private String asDouble(String bits) {
        String f = ptx.f64();
        ptx.op("mov.b64 %s, %s", f, bits);
        return f;
    }
}
