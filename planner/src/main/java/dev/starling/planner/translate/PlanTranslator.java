package dev.starling.planner.translate;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Translates a tree of Starling physical operators into the exec plan contract, keeping the
 * optimizer's row estimate of each operator for the nodes it becomes.
 */
public final class PlanTranslator {
    private final RexBuilder rexBuilder;
    private final PlanEstimates.Builder estimates = PlanEstimates.builder();

    public PlanTranslator(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /**
     * The exec plan of a whole query: its columns exactly the root's fields, in order, named as the
     * query's validated row type names them (the optimizer drops projections that only rename).
     */
    public PlanNode translateRoot(RelNode root, RelDataType validatedRowType) {
        PlanNode plan = normalized(translate(root, ImmutableBitSet.of()), validatedRowType);
        estimates.estimate(plan, root.getCluster().getMetadataQuery().getRowCount(root));
        return plan;
    }

    /** The row estimates of the nodes translated so far. */
    public PlanEstimates estimates() {
        return estimates.build();
    }

    public Translated translate(RelNode rel, ImmutableBitSet codes) {
        return translate(rel, codes, ImmutableBitSet.of());
    }

    /** {@code rel} translated where the fields {@code codeOnly} are wanted for their codes alone (see {@link Translatable}). */
    public Translated translate(RelNode rel, ImmutableBitSet codes, ImmutableBitSet codeOnly) {
        if (!(rel instanceof Translatable starling)) {
            throw new IllegalStateException("not a Starling physical operator: " + rel);
        }
        Translated t = codeOnly.isEmpty() ? starling.translate(this, codes) : starling.translate(this, codes, codeOnly);
        estimates.estimate(t.node(), rel.getCluster().getMetadataQuery().getRowCount(rel));
        return t;
    }

    /** {@code t}'s node, with a projection added when its columns are not exactly {@code rowType}'s fields. */
    public PlanNode normalized(Translated t, RelDataType rowType) {
        List<String> names = rowType.getFieldNames();
        List<Field> fields = t.node().output();
        boolean sameNames = t.isIdentity();
        for (int i = 0; sameNames && i < names.size(); i++) {
            sameNames = fields.get(i).name().equals(names.get(i));
        }
        if (sameNames) {
            return t.node();
        }
        List<Expr> exprs = new ArrayList<>();
        for (int column : t.values()) {
            Field f = fields.get(column);
            exprs.add(new ColumnRef(column, f.type(), f.nullable()));
        }
        return new ProjectNode(t.node(), exprs, names);
    }

    /** {@code rex} over the operator's input fields, which lie in {@code input} as its layout says. */
    public Expr expr(RexNode rex, Translated input) {
        return expr(rex, input.values(), input.node().output());
    }

    /**
     * {@code rex} over fields where field i is column {@code columns[i]} of a row with {@code fields},
     * in the explicit form both backends evaluate.
     */
    public Expr expr(RexNode rex, int[] columns, List<Field> fields) {
        return ExprLowering.lower(new RexTranslator(rexBuilder, columns, fields).translate(rex));
    }

    /** The row count of an OFFSET or FETCH clause, which must be a constant. */
    public long rowCount(RexNode rex, String clause) {
        if (rex instanceof RexLiteral literal) {
            Long v = literal.getValueAs(Long.class);
            if (v != null && v >= 0) {
                return v;
            }
        }
        throw StarlingSqlException.unsupported(clause + " " + rex + " (only a non-negative constant is supported)");
    }
}
