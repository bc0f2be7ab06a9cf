package dev.starling.exec.run;

import dev.starling.exec.op.HashAggregateSink;
import dev.starling.exec.op.JoinTable;
import dev.starling.exec.op.SortSink;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The host memory a pipeline breaker's state is estimated to take on the CPU backend, from the
 * optimizer's row estimates and the layouts of the operators that keep it: a join's table, an
 * aggregation's groups, a sort's rows.
 */
public final class StateMemory {
    /** The executor runs one worker per processor; a top-N keeps a buffer in each. */
    private static final int WORKERS = Runtime.getRuntime().availableProcessors();

    private StateMemory() {
    }

    /** The bytes {@code node}'s state takes, if it is a breaker whose rows were estimated. */
    public static OptionalLong of(PlanNode node, PlanEstimates estimates) {
        return switch (node) {
            case HashJoinNode j -> bytes(estimates.rows(j.markProbe() ? j.probe() : j.build()),
                    rows -> JoinTable.bytesFor(j, rows));
            case AggregateNode a -> bytes(estimates.rows(a), groups -> HashAggregateSink.bytesFor(a, groups));
            case SortNode s -> bytes(estimates.rows(s.input()), rows -> SortSink.bytesFor(s, rows, WORKERS));
            default -> OptionalLong.empty();
        };
    }

    private static OptionalLong bytes(OptionalDouble rows, java.util.function.LongUnaryOperator size) {
        return rows.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(size.applyAsLong(Math.round(rows.getAsDouble())));
    }
}
