package dev.starling.exec.plan;

import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * Grouped (or, with no group keys, scalar) aggregation. Output: the group keys in order, then one
 * column per call. A scalar aggregation over no rows yields one row (COUNT 0, others NULL).
 */
public record AggregateNode(PlanNode input, int[] groupKeys, List<AggCall> calls) implements PlanNode {

    public enum Function { COUNT_STAR, COUNT, SUM, MIN, MAX, AVG }

    /**
     * {@code argument} is an input column (-1 for COUNT_STAR); {@code filter} an input BOOLEAN
     * column (or -1) restricting the rows this call sees; {@code type} the result type.
     */
    public record AggCall(Function function, int argument, boolean distinct, int filter, String name,
                          DataType type, boolean nullable) { }

    public AggregateNode {
        calls = List.copyOf(calls);
    }

    @Override
    public List<Field> output() {
        List<Field> in = input.output();
        List<Field> out = new ArrayList<>();
        for (int k : groupKeys) {
            out.add(in.get(k));
        }
        for (AggCall c : calls) {
            out.add(new Field(c.name(), c.type(), c.nullable()));
        }
        return out;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public String describe() {
        List<String> in = Field.labels(input.output());
        List<String> by = java.util.Arrays.stream(groupKeys).mapToObj(in::get).toList();
        List<String> aggregates = calls.stream().map(c -> (c.function() == Function.COUNT_STAR ? "COUNT(*)"
                : c.function() + "(" + (c.distinct() ? "DISTINCT " : "") + in.get(c.argument()) + ")")
                + (c.filter() >= 0 ? " FILTER (WHERE " + in.get(c.filter()) + ")" : "")).toList();
        return "Aggregate" + (by.isEmpty() ? "" : " group by " + by) + " " + aggregates;
    }
}
