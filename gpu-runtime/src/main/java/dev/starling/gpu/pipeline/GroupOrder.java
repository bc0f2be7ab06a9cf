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
