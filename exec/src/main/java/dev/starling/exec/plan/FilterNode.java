package dev.starling.exec.plan;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import java.util.List;

public record FilterNode(PlanNode input, Expr condition) implements PlanNode {
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
        return "Filter " + ExprText.of(condition, Field.labels(input.output()));
    }
}
