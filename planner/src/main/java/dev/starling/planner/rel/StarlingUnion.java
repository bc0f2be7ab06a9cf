package dev.starling.planner.rel;

import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.UnionNode;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import dev.starling.planner.type.TypeMapping;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.util.ImmutableBitSet;

/** UNION ALL; a UNION DISTINCT reaches it as UNION ALL below an aggregate. */
public final class StarlingUnion extends Union implements StarlingRel {

    public StarlingUnion(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs) {
        super(cluster, traits, inputs, true);
    }

    @Override
    public SetOp copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new StarlingUnion(getCluster(), traitSet, inputs);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        List<PlanNode> inputs = getInputs().stream()
                .map(in -> translator.normalized(translator.translate(in, ImmutableBitSet.of()), in.getRowType()))
                .toList();
        List<Field> output = getRowType().getFieldList().stream()
                .map(f -> new Field(f.getName(), TypeMapping.toStarling(f.getType()), f.getType().isNullable()))
                .toList();
        return Translated.identity(new UnionNode(inputs, output), output.size());
    }
}
