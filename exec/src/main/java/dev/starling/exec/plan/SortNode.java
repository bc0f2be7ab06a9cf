package dev.starling.exec.plan;

import java.util.List;

/** Sorts its input; with {@code limit >= 0} only the first {@code offset + limit} rows are kept (top-N). */
public record SortNode(PlanNode input, List<SortKey> keys, long offset, long limit) implements PlanNode {

    /** NULLs sort as the largest values unless {@code nullsFirst} says otherwise. */
    public record SortKey(int column, boolean descending, boolean nullsFirst) { }

    public SortNode {
        keys = List.copyOf(keys);
    }

    @Override
    public List<Field> output() {
        return input.output();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public String describe() {
        List<String> in = Field.labels(input.output());
        List<String> by = keys.stream().map(k -> in.get(k.column()) + (k.descending() ? " DESC" : "")
                + (k.nullsFirst() != k.descending() ? (k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST") : "")).toList();
        return "Sort " + by + (offset > 0 ? " offset " + offset : "") + (limit >= 0 ? " limit " + limit : "");
    }
}
