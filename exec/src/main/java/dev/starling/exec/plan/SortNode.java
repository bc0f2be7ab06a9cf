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
        return "Sort " + keys + (offset > 0 ? " offset=" + offset : "") + (limit >= 0 ? " limit=" + limit : "");
    }
}
