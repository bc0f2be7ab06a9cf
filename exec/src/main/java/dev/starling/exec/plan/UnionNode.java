package dev.starling.exec.plan;

import java.util.List;

/** UNION ALL of inputs with the same column types (a UNION DISTINCT is planned as this plus an aggregate). */
public record UnionNode(List<PlanNode> inputs, List<Field> output) implements PlanNode {
    @Override
    public String describe() {
        return "UnionAll";
    }
}
