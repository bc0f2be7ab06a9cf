package dev.starling.exec.op;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.VecExpr;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.pipeline.Operator;
import dev.starling.exec.vector.Batch;

/** Keeps the rows whose condition is TRUE, compacting every column. */
public final class FilterOperator implements Operator {
    private final VecExpr condition;

    public FilterOperator(Expr condition) {
        this.condition = ExprCompiler.compile(condition);
    }

    @Override
    public Batch process(Batch in) {
        int n = in.rows();
        int[] sel = new int[n];
        int selected = Selection.of(condition.eval(in), n, sel);
        if (selected == n) {
            return in;
        }
        return selected == 0 ? null : in.gather(sel, selected);
    }
}
