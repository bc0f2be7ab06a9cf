package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.Expr;
import java.util.List;

/**
 * Turns a filter condition into a {@link SelectionFilter}: its top-level conjuncts narrow the
 * selection one after the other, a comparison of an exact numeric column with a literal as a tight
 * loop over the column, anything else through its vectorized evaluator on the selected rows.
 */
public final class FilterCompiler {
    private FilterCompiler() { }

    public static SelectionFilter compile(Expr condition) {
        List<Expr> conjuncts = Call.conjuncts(condition);
        SelectionFilter[] filters = conjuncts.stream().map(FilterCompiler::conjunct).toArray(SelectionFilter[]::new);
        return SelectionFilter.allOf(filters);
    }

    private static SelectionFilter conjunct(Expr e) {
        if (e instanceof Call c && c.args().size() == 2) {
            SelectionFilter f = RangeFilter.of(c.op(), c.args().get(0), c.args().get(1));
            if (f == null) {
                f = RangeFilter.of(c.op().flipped(), c.args().get(1), c.args().get(0));
            }
            if (f != null) {
                return f;
            }
        }
        return new ExprFilter(ExprCompiler.compile(e), ExprCompiler.columnsOf(e));
    }
}
