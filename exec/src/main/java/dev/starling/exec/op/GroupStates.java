package dev.starling.exec.op;

import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.List;

/**
 * An aggregation's per-group states computed by another backend (the GPU), over all rows or over
 * its share of them: the group key columns in the aggregation's output order, and per call the
 * states the CPU's aggregation keeps (see {@link AggregateStates}). A share is merged with the CPU
 * workers' groups ({@link HashAggregateSink#local}); states over all rows are finished alone.
 */
public record GroupStates(Vector[] keys, int groups, List<CallStates> calls) {

    /** One call's count of values seen per group, and its sums or extremes as longs or doubles (the other may be null). */
    public record CallStates(long[] counts, long[] longs, double[] doubles) { }

    public GroupStates {
        calls = List.copyOf(calls);
    }

    /** The aggregation's rows from these states alone. */
    public Batch finish(AggregateNode node) {
        List<AggCall> calls = node.calls();
        Vector[] out = new Vector[keys.length + calls.size()];
        System.arraycopy(keys, 0, out, 0, keys.length);
        for (int c = 0; c < calls.size(); c++) {
            CallStates s = this.calls.get(c);
            out[keys.length + c] = AggregateStates.result(calls.get(c), argumentType(node, calls.get(c)), s.counts(),
                    s.longs(), s.doubles(), groups);
        }
        return new Batch(out, groups);
    }

    /** The type of {@code call}'s argument, null for COUNT(*). */
    static DataType argumentType(AggregateNode node, AggCall call) {
        return call.argument() < 0 ? null : node.input().output().get(call.argument()).type();
    }
}
