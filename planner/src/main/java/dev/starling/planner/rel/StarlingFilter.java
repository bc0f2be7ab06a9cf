package dev.starling.planner.rel;

import dev.starling.exec.plan.FilterNode;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

public final class StarlingFilter extends Filter implements StarlingRel {

    public StarlingFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
        return new StarlingFilter(getCluster(), traitSet, input, condition);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        Translated in = translator.translate(getInput(), codes);
        FilterNode node = new FilterNode(in.node(), translator.expr(getCondition(), in));
        return new Translated(node, in.values(), in.codes());
    }
}
