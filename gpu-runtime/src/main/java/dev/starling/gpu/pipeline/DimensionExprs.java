package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Expressions that read the columns of a single dimension. They have one value per dimension
 * row, so the CPU computes them over the dimension's rows (strings, LIKE, anything its evaluator
 * knows) and the kernel only reads the result by code.
 */
final class DimensionExprs {
    private DimensionExprs() { }

    /** The dimension all of {@code e}'s columns come from, or -1 (no columns, or fact columns, or several dimensions). */
    static int dimensionOf(Expr e, List<ColumnOrigin> sources) {
        Set<Integer> refs = new TreeSet<>();
        collectRefs(e, refs);
        int d = -1;
        for (int r : refs) {
            if (!(sources.get(r) instanceof ColumnOrigin.Dim dim) || (d >= 0 && dim.dimension() != d)) {
                return -1;
            }
            d = dim.dimension();
        }
        return d;
    }

    /** {@code e} over its dimension's build columns. */
    static Expr toBuildColumns(Expr e, List<ColumnOrigin> sources) {
        return switch (e) {
            case ColumnRef c -> new ColumnRef(((ColumnOrigin.Dim) sources.get(c.index())).buildColumn(), c.type(), c.nullable());
            case Literal l -> l;
            case Call c -> new Call(c.op(), c.args().stream().map(a -> toBuildColumns(a, sources)).toList(),
                    c.type(), c.nullable());
        };
    }

    /** Whether {@code e} reads a fold of a dimension's rows (a {@link ColumnOrigin.Dim} with a fold). */
    static boolean readsFolds(Expr e, List<ColumnOrigin> sources) {
        Set<Integer> refs = new TreeSet<>();
        collectRefs(e, refs);
        return refs.stream().anyMatch(r -> sources.get(r) instanceof ColumnOrigin.Dim d && d.fold() != null);
    }

    static void collectRefs(Expr e, Set<Integer> out) {
        switch (e) {
            case ColumnRef c -> out.add(c.index());
            case Literal l -> { }
            case Call c -> c.args().forEach(a -> collectRefs(a, out));
        }
    }
}
