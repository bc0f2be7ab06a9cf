package dev.starling.exec.op;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.VecExpr;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.pipeline.Operator;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import java.util.List;

/** Computes one output column per expression; column references pass their vectors through. */
public final class ProjectOperator implements Operator {
    private final VecExpr[] expressions;

    public ProjectOperator(List<Expr> expressions) {
        this.expressions = expressions.stream().map(ExprCompiler::compile).toArray(VecExpr[]::new);
    }

    @Override
    public Batch process(Batch in) {
        Vector[] out = new Vector[expressions.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = expressions[i].eval(in);
        }
        return new Batch(out, in.rows());
    }
}
