package dev.starling.planner.rel;

import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

public final class StarlingProject extends Project implements StarlingRel {

    public StarlingProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<? extends RexNode> projects,
                           RelDataType rowType) {
        super(cluster, traits, List.of(), input, projects, rowType, java.util.Set.of());
    }

    @Override
    public Project copy(RelTraitSet traitSet, RelNode input, List<RexNode> projects, RelDataType rowType) {
        return new StarlingProject(getCluster(), traitSet, input, projects, rowType);
    }

    /** Whether every output is a plain input column (a projection a scan can absorb). */
    public boolean isColumnSelection() {
        return getProjects().stream().allMatch(p -> p instanceof RexInputRef);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        // A code requested of a passed-through column is requested of the input and passed on too.
        ImmutableBitSet.Builder inputCodes = ImmutableBitSet.builder();
        for (int field : codes) {
            if (getProjects().get(field) instanceof RexInputRef ref) {
                inputCodes.set(ref.getIndex());
            }
        }
        Translated in = translator.translate(getInput(), inputCodes.build());
        List<Expr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>(getRowType().getFieldNames());
        for (RexNode p : getProjects()) {
            exprs.add(translator.expr(p, in));
        }
        int[] codeColumns = new int[exprs.size()];
        Arrays.fill(codeColumns, -1);
        List<Field> inFields = in.node().output();
        for (int field : codes) {
            if (getProjects().get(field) instanceof RexInputRef ref && in.codes()[ref.getIndex()] >= 0) {
                int column = in.codes()[ref.getIndex()];
                Field f = inFields.get(column);
                codeColumns[field] = exprs.size();
                exprs.add(new ColumnRef(column, f.type(), f.nullable()));
                names.add(f.name());
            }
        }
        int[] values = new int[getProjects().size()];
        Arrays.setAll(values, i -> i);
        return new Translated(new ProjectNode(in.node(), exprs, names), values, codeColumns);
    }
}
