package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a filter condition into a {@link SelectionFilter}: its top-level conjuncts narrow the
 * selection one after the other, a comparison of an exact numeric column with a literal as a tight
 * loop over the column, anything else through its vectorized evaluator on the selected rows.
 */
public final class FilterCompiler {
    private FilterCompiler() { }

    public static SelectionFilter compile(Expr condition) {
        List<Expr> conjuncts = conjuncts(condition, new ArrayList<>());
        SelectionFilter[] filters = conjuncts.stream().map(FilterCompiler::conjunct).toArray(SelectionFilter[]::new);
        return SelectionFilter.allOf(filters);
    }

    private static List<Expr> conjuncts(Expr e, List<Expr> out) {
        if (e instanceof Call c && c.op() == Call.Op.AND) {
            c.args().forEach(a -> conjuncts(a, out));
        } else {
            out.add(e);
        }
        return out;
    }

    private static SelectionFilter conjunct(Expr e) {
        if (e instanceof Call c && c.args().size() == 2) {
            SelectionFilter f = RangeFilter.of(c.op(), c.args().get(0), c.args().get(1));
            if (f == null) {
                f = RangeFilter.of(flip(c.op()), c.args().get(1), c.args().get(0));
            }
            if (f != null) {
                return f;
            }
        }
        return new ExprFilter(ExprCompiler.compile(e), ExprCompiler.columnsOf(e));
    }

    private static Call.Op flip(Call.Op op) {
        return switch (op) {
            case LT -> Call.Op.GT;
            case LE -> Call.Op.GE;
            case GT -> Call.Op.LT;
            case GE -> Call.Op.LE;
            default -> op;
        };
    }
}
