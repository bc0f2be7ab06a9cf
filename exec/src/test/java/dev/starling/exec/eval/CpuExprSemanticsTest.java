package dev.starling.exec.eval;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprSemantics;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import java.util.ArrayList;
import java.util.List;

/** The expression IR's semantics on the CPU backend's vectorized evaluator. */
class CpuExprSemanticsTest extends ExprSemantics {
    @Override
    protected List<Object> evaluate(Expr e, Vector... columns) {
        int rows = columns[0].longs() != null ? columns[0].longs().length : columns[0].doubles().length;
        Vector v = ExprCompiler.compile(e).eval(new Batch(columns, rows));
        List<Object> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            out.add(v.isNull(r) ? null : v.value(r));
        }
        return out;
    }
}
