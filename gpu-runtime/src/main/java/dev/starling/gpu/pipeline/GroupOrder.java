package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.plan.AggregateNode;
import java.util.Optional;

/**
 * Only the first {@code count} groups in the order of one aggregate, which a sort with a limit over
 * the aggregation keeps: the device finds the key of the {@code count}-th group and compacts only
 * the groups that {@code count} others do not strictly precede (ties with the last one kept stay),
 * so that neither the other groups' states cross the link nor their keys are decoded, which was
 * most of a query's time when millions of groups come back for a top 10 (TPC-H Q3, Q10). The sort
 * and limit above still run on the CPU over those. The aggregate's state must order the groups by
 * one 64-bit word and never be NULL: a COUNT, or a SUM, MIN or MAX of integers (or decimals) that
 * counts every row of its group; its state is slot {@code slot}'s low word.
 */
public record GroupOrder(int slot, boolean descending, long count, String label) {
    /** The bins of a {@link ByteCounts} answer: one per byte value, then the groups whose SUM passed 64 bits. */
    static final int BINS = 257;

    /**
     * The order {@code first} gives {@code pipeline}'s groups, when the aggregate it sorts by has
     * such a state (sorting by a group key, an AVG, a double or a value that may be NULL: empty).
     */
    public static Optional<GroupOrder> of(StarPipeline pipeline, GroupsWanted.First first) {
        if (first == null || !(pipeline.node() instanceof AggregateNode a)) {
            return Optional.empty();
        }
        int call = first.column() - a.groupKeys().length;
        if (call < 0) {
            return Optional.empty();
        }
        StarPipeline.CallStates states = pipeline.calls().get(call);
        String label = a.output().get(first.column()).name();
        return switch (a.calls().get(call).function()) {
            case COUNT_STAR, COUNT -> Optional.of(new GroupOrder(states.countSlot(), first.descending(), first.count(), label));
            case SUM, MIN, MAX -> {
                AggKind kind = pipeline.slots().get(states.valueSlot()).kind();
                boolean integral = kind == AggKind.SUM_I || kind == AggKind.MIN_I || kind == AggKind.MAX_I;
                // slot 0 counts every row: a call whose count is it is never NULL
                yield integral && states.countSlot() == 0
                        ? Optional.of(new GroupOrder(states.valueSlot(), first.descending(), first.count(), label))
                        : Optional.empty();
            }
            case AVG -> Optional.empty();
        };
    }

    /** For EXPLAIN. */
    public String describe() {
        return "of its groups, only the first " + count + " by " + label + (descending ? " DESC" : "")
                + " (and ties) decoded";
    }

    /**
     * How many groups have each value of one byte of their order key, among those whose key has
     * given bits: the device's {@code key_bytes} over the keys {@code order_keys} gathered. The key is {@link #key} with its sign bit
     * flipped, which orders keys as unsigned numbers as {@link #key} orders them as signed ones.
     */
    @FunctionalInterface
    interface ByteCounts {
        /**
         * {@link #BINS} counts: of the groups whose key has the bits of {@code prefix} where
         * {@code mask} has them, those with each value of the byte at {@code shift}; last, the
         * groups (of any key) one of whose integer SUMs passed 64 bits.
         */
        long[] count(long prefix, long mask, int shift);
    }

    /**
     * The least key ({@link #key}) a group must have to be kept: that of the {@code count}-th
     * group, found a byte at a time from the most significant, each round counting by their next
     * byte the keys that share the bytes found so far, and stopping early where every key of the
     * byte found is kept. {@link Long#MIN_VALUE} keeps every group: cutting pays only where few of
     * many groups are kept (not a quarter of them or more), and a SUM past 64 bits must come back
     * for the read-back to report it, as the CPU does for every group before its sort.
     */
    long threshold(ByteCounts counts) {
        long prefix = 0;
        long mask = 0;
        long need = count;
        for (int shift = 56; shift >= 0; shift -= 8) {
            long[] bins = counts.count(prefix, mask, shift);
            if (shift == 56) {
                long groups = java.util.Arrays.stream(bins, 0, BINS - 1).sum();
                if (bins[BINS - 1] > 0 || count > groups / 4) {
                    return Long.MIN_VALUE;
                }
            }
            int b = BINS - 2;
            while (bins[b] < need) {
                need -= bins[b--];
            }
            prefix |= (long) b << shift;
            mask |= 0xffL << shift;
            if (bins[b] == need) {
                break;
            }
        }
        return prefix ^ Long.MIN_VALUE;
    }

    /** A state word as a key that is greater the earlier its group comes: its value descending, else its complement. */
    long key(long word) {
        return descending ? word : ~word;
    }

    /**
     * The HAVING term that keeps the groups whose key is at least {@code threshold}: their state
     * compared with it (with its complement, ascending), for {@code pipeline}'s kind of state in
     * {@link #slot}.
     */
    GroupFilter.Term keeping(StarPipeline pipeline, long threshold) {
        GroupFilter.Comparison comparison = descending ? GroupFilter.Comparison.GE : GroupFilter.Comparison.LE;
        long constant = descending ? threshold : ~threshold;
        return switch (pipeline.slots().get(slot).kind()) {
            case COUNT -> new GroupFilter.Term(GroupFilter.Kind.COUNT, comparison, slot, -1, constant);
            case SUM_I -> new GroupFilter.Term(GroupFilter.Kind.SUM, comparison, 0, slot, constant);
            default -> new GroupFilter.Term(GroupFilter.Kind.EXTREME, comparison, 0, slot, constant);
        };
    }
}
