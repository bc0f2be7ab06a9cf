package dev.starling.exec.plan;

import java.util.List;

/** Skips {@code offset} rows and keeps at most {@code limit} (-1: all) rows of an unordered input. */
public record LimitNode(PlanNode input, long offset, long limit) implements PlanNode {
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
        return "Limit " + limit + (offset > 0 ? " offset " + offset : "");
    }
}
