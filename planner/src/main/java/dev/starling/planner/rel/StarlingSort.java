package dev.starling.planner.rel;

import dev.starling.exec.plan.SortNode;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/** ORDER BY, with OFFSET / FETCH making it a top-N. */
public final class StarlingSort extends Sort implements StarlingRel {

    public StarlingSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation,
                        @Nullable RexNode offset, @Nullable RexNode fetch) {
        super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode newInput, RelCollation newCollation, @Nullable RexNode offset,
                     @Nullable RexNode fetch) {
        return new StarlingSort(getCluster(), traitSet, newInput, newCollation, offset, fetch);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        Translated in = translator.translate(getInput(), codes);
        List<SortNode.SortKey> keys = getCollation().getFieldCollations().stream()
                .map(c -> new SortNode.SortKey(in.values()[c.getFieldIndex()], c.getDirection().isDescending(),
                        c.nullDirection == RelFieldCollation.NullDirection.FIRST))
                .toList();
        long skip = offset == null ? 0 : translator.rowCount(offset, "OFFSET");
        long limit = fetch == null ? -1 : translator.rowCount(fetch, "FETCH/LIMIT");
        return new Translated(new SortNode(in.node(), keys, skip, limit), in.values(), in.codes());
    }
}
