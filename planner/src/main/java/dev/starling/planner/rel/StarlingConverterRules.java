package dev.starling.planner.rel;

import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;

/**
 * Converts each logical operator into its Starling physical operator. Constructs Starling cannot
 * run were rejected before this phase (see {@code UnsupportedConstructs}), so every logical
 * operator that reaches here has a conversion.
 */
public final class StarlingConverterRules {
    private StarlingConverterRules() {
    }

    public static final List<RelOptRule> ALL = List.of(
            rule(LogicalTableScan.class, "StarlingTableScanRule", rel -> StarlingTableScan.of(rel.getCluster(), rel.getTable())),
            rule(LogicalFilter.class, "StarlingFilterRule", rel -> {
                LogicalFilter f = (LogicalFilter) rel;
                return new StarlingFilter(f.getCluster(), physical(f), convert(f.getInput()), f.getCondition());
            }),
            rule(LogicalProject.class, "StarlingProjectRule", rel -> {
                LogicalProject p = (LogicalProject) rel;
                return new StarlingProject(p.getCluster(), physical(p), convert(p.getInput()), p.getProjects(), p.getRowType());
            }),
            rule(LogicalJoin.class, "StarlingHashJoinRule", rel -> {
                LogicalJoin j = (LogicalJoin) rel;
                return new StarlingHashJoin(j.getCluster(), physical(j), convert(j.getLeft()), convert(j.getRight()),
                        j.getCondition(), j.getJoinType());
            }),
            rule(LogicalAggregate.class, "StarlingAggregateRule", rel -> {
                LogicalAggregate a = (LogicalAggregate) rel;
                return new StarlingAggregate(a.getCluster(), physical(a), convert(a.getInput()), a.getGroupSet(),
                        a.getAggCallList());
            }),
            rule(LogicalSort.class, "StarlingSortRule", rel -> {
                Sort s = (Sort) rel;
                RelTraitSet traits = s.getCluster().traitSetOf(StarlingRel.CONVENTION);
                return s.getCollation().getFieldCollations().isEmpty()
                        ? new StarlingLimit(s.getCluster(), traits, convert(s.getInput()), s.offset, s.fetch)
                        : new StarlingSort(s.getCluster(), traits, convert(s.getInput()), s.getCollation(), s.offset, s.fetch);
            }),
            rule(LogicalValues.class, "StarlingValuesRule", rel -> {
                LogicalValues v = (LogicalValues) rel;
                return new StarlingValues(v.getCluster(), v.getRowType(), v.getTuples(), physical(v));
            }),
            rule(LogicalUnion.class, "StarlingUnionRule", rel -> new StarlingUnion(rel.getCluster(), physical(rel),
                    rel.getInputs().stream().map(StarlingConverterRules::convert).toList())));

    private static RelTraitSet physical(RelNode rel) {
        return rel.getTraitSet().replace(StarlingRel.CONVENTION);
    }

    private static RelNode convert(RelNode input) {
        return RelOptRule.convert(input, input.getTraitSet().replace(StarlingRel.CONVENTION));
    }

    private static RelOptRule rule(Class<? extends RelNode> logical, String name,
                                   java.util.function.Function<RelNode, RelNode> conversion) {
        return ConverterRule.Config.INSTANCE
                .withConversion(logical, Convention.NONE, StarlingRel.CONVENTION, name)
                .withRuleFactory(config -> new ConverterRule(config) {
                    @Override
                    public RelNode convert(RelNode rel) {
                        return conversion.apply(rel);
                    }
                })
                .toRule();
    }
}
