package dev.starling.planner.rel;

import dev.starling.exec.plan.LimitNode;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/** OFFSET / FETCH over an unordered input (a Calcite Sort with no collation). */
public final class StarlingLimit extends Sort implements StarlingRel {

    public StarlingLimit(RelOptCluster cluster, RelTraitSet traits, RelNode input, @Nullable RexNode offset,
                         @Nullable RexNode fetch) {
        super(cluster, traits, input, RelCollations.EMPTY, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode newInput, RelCollation newCollation, @Nullable RexNode offset,
                     @Nullable RexNode fetch) {
        return new StarlingLimit(getCluster(), traitSet, newInput, offset, fetch);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        Translated in = translator.translate(getInput(), codes);
        long skip = offset == null ? 0 : translator.rowCount(offset, "OFFSET");
        long limit = fetch == null ? -1 : translator.rowCount(fetch, "FETCH/LIMIT");
        return new Translated(new LimitNode(in.node(), skip, limit), in.values(), in.codes());
    }
}
