package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts the expressions a pipeline computes per dimension row (group keys, dimension columns the
 * kernel reads) on top of each dimension's build plan, so the CPU backend evaluates them while it
 * builds the dimension (vectorized, on all cores) and hands over just the key and those values.
 */
final class DimensionProjection {
    private final List<StarPipeline.Dimension> dimensions;
    private final List<List<Expr>> expressions = new ArrayList<>();

    DimensionProjection(List<StarPipeline.Dimension> dimensions) {
        this.dimensions = dimensions;
        for (StarPipeline.Dimension d : dimensions) {
            List<Expr> e = new ArrayList<>();
            Field key = d.build().output().get(d.keyColumn());
            e.add(new ColumnRef(d.keyColumn(), d.hashed() ? key.type() : DataType.INTEGER, d.hashed() && key.nullable()));
            expressions.add(e);
        }
    }

    /** Adds {@code expr} (over dimension {@code d}'s build columns); returns a reference to it in the projection. */
    ColumnRef add(int d, Expr expr) {
        List<Expr> e = expressions.get(d);
        int at = e.indexOf(expr);
        if (at < 0) {
            at = e.size();
            e.add(expr);
        }
        return new ColumnRef(at, expr.type(), expr.nullable());
    }

    /** {@code projection}'s columns over {@code rows}, rows of its input, computed on the CPU. */
    static Batch apply(ProjectNode projection, Batch rows) {
        List<Expr> expressions = projection.expressions();
        Vector[] projected = new Vector[expressions.size()];
        for (int e = 0; e < projected.length; e++) {
            projected[e] = ExprCompiler.compile(expressions.get(e)).eval(rows);
        }
        return new Batch(projected, rows.rows());
    }

    /** The dimensions with their projected build plans; the key (code or value) is column 0. */
    List<StarPipeline.Dimension> dimensions() {
        List<StarPipeline.Dimension> out = new ArrayList<>();
        for (int d = 0; d < dimensions.size(); d++) {
            List<Expr> e = expressions.get(d);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < e.size(); i++) {
                names.add(i == 0 ? "$key" : "$d" + i);
            }
            StarPipeline.Dimension dim = dimensions.get(d);
            out.add(dim.projected(new ProjectNode(dim.build(), e, names)));
        }
        return List.copyOf(out);
    }
}
