package dev.starling.exec.op;

import dev.starling.exec.eval.FilterCompiler;
import dev.starling.exec.eval.SelectionFilter;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.pipeline.Operator;
import dev.starling.exec.vector.Batch;
import java.util.function.Consumer;

/** Keeps the rows whose condition is TRUE, compacting every column. */
public final class FilterOperator implements Operator {
    private final SelectionFilter condition;
    private int[] sel = new int[Batch.ROWS];

    public FilterOperator(Expr condition) {
        this.condition = FilterCompiler.compile(condition);
    }

    @Override
    public void process(Batch in, Consumer<Batch> out) {
        Operator.emit(apply(in), out);
    }

    private Batch apply(Batch in) {
        int n = in.rows();
        if (sel.length < n) {
            sel = new int[n];
        }
        SelectionFilter.identity(sel, n);
        int selected = condition.filter(in, sel, n);
        if (selected == n) {
            return in;
        }
        return selected == 0 ? null : in.gather(sel, selected);
    }
}
