package dev.starling.exec.op;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.VecExpr;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.pipeline.Operator;
import dev.starling.exec.vector.Batch;
import java.util.function.Consumer;
import dev.starling.exec.vector.Vector;
import java.util.BitSet;
import java.util.List;

/**
 * Computes one output column per expression that is {@code needed} downstream (the others are left
 * null); column references pass their vectors through.
 */
public final class ProjectOperator implements Operator {
    private final VecExpr[] expressions;

    public ProjectOperator(List<Expr> expressions, BitSet needed) {
        this.expressions = new VecExpr[expressions.size()];
        needed.stream().forEach(i -> this.expressions[i] = ExprCompiler.compile(expressions.get(i)));
    }

    @Override
    public void process(Batch in, Consumer<Batch> out) {
        Operator.emit(apply(in), out);
    }

    private Batch apply(Batch in) {
        Vector[] out = new Vector[expressions.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = expressions[i] == null ? null : expressions[i].eval(in);
        }
        return new Batch(out, in.rows());
    }
}
