package dev.starling.exec.plan;

import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import java.util.ArrayList;
import java.util.List;

public record ProjectNode(PlanNode input, List<Expr> expressions, List<String> names) implements PlanNode {
    public ProjectNode {
        expressions = List.copyOf(expressions);
        names = List.copyOf(names);
    }

    @Override
    public List<Field> output() {
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < expressions.size(); i++) {
            out.add(new Field(names.get(i), expressions.get(i).type(), expressions.get(i).nullable()));
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
        List<String> out = new ArrayList<>();
        for (int i = 0; i < expressions.size(); i++) {
            String text = ExprText.of(expressions.get(i), in);
            out.add(text.equals(names.get(i)) || expressions.get(i) instanceof ColumnRef ? text : names.get(i) + ": " + text);
        }
        return "Project " + out;
    }
}
