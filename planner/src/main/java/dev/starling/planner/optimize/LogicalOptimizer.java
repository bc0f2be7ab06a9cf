package dev.starling.planner.optimize;

import dev.starling.planner.rel.ScanPushDownRules;
import dev.starling.planner.rel.StarlingConverterRules;
import dev.starling.planner.stats.StarlingMetadata;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RuleSets;

/**
 * Starling's optimization: EXISTS subqueries correlated only by their filter become semi and anti
 * joins; other subqueries become correlates and are decorrelated into joins; an aggregation over a
 * LEFT join by the preserved side's key moves below the join; filters and projections move down,
 * constants fold; inner joins are gathered and reordered by cardinality (the largest input ends up
 * as the left-most probe input, each dimension a build side); unused
 * columns are trimmed; then every operator converts into the STARLING convention, with filters and
 * projections absorbed by scans.
 */
public final class LogicalOptimizer {
    private LogicalOptimizer() {
    }

    private static final List<RelOptRule> SIMPLIFY = List.of(
            PullFactorsRule.INSTANCE,
            AntiJoinRule.INSTANCE,
            AggregateBelowLeftJoinRule.INSTANCE,
            CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH,
            CoreRules.JOIN_PUSH_EXPRESSIONS,
            CoreRules.FILTER_PROJECT_TRANSPOSE,
            CoreRules.FILTER_MERGE,
            CoreRules.FILTER_AGGREGATE_TRANSPOSE,
            CoreRules.FILTER_SET_OP_TRANSPOSE,
            CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_REMOVE,
            CoreRules.AGGREGATE_PROJECT_MERGE,
            CoreRules.AGGREGATE_REMOVE,
            CoreRules.FILTER_REDUCE_EXPRESSIONS,
            ProjectReduceRule.INSTANCE,
            CoreRules.JOIN_REDUCE_EXPRESSIONS,
            CoreRules.UNION_TO_DISTINCT,
            CoreRules.UNION_MERGE,
            CoreRules.PROJECT_TO_SEMI_JOIN,
            CoreRules.JOIN_TO_SEMI_JOIN,
            KeyReductionRule.INSTANCE,
            PruneEmptyRules.FILTER_INSTANCE,
            PruneEmptyRules.PROJECT_INSTANCE,
            PruneEmptyRules.JOIN_LEFT_INSTANCE,
            PruneEmptyRules.JOIN_RIGHT_INSTANCE,
            PruneEmptyRules.AGGREGATE_INSTANCE,
            PruneEmptyRules.SORT_INSTANCE,
            PruneEmptyRules.UNION_INSTANCE);

    /** The whole optimization, as one Calcite program ending in the STARLING convention. */
    public static Program program() {
        List<RelOptRule> physical = new ArrayList<>(StarlingConverterRules.ALL);
        physical.addAll(ScanPushDownRules.ALL);
        return Programs.sequence(
                hep(new HepProgramBuilder().addRuleInstance(ExistsToSemiJoinRule.INSTANCE).build()),
                hep(new HepProgramBuilder().addMatchOrder(HepMatchOrder.BOTTOM_UP)
                        .addRuleInstance(FilterSimplifyRule.INSTANCE).build()),
                hep(new HepProgramBuilder().addRuleCollection(List.of(
                        CoreRules.AGGREGATE_PROJECT_PULL_UP_CONSTANTS,
                        ConstantGroupingRule.INSTANCE,
                        CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                        CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
                        CoreRules.JOIN_SUB_QUERY_TO_CORRELATE)).build()),
                (planner, rel, traits, materializations, lattices) ->
                        RelDecorrelator.decorrelateQuery(rel, builder(rel)),
                (planner, rel, traits, materializations, lattices) -> ImpliedDisjuncts.apply(rel),
                // Filters reduced, from the leaves up, before they move into joins: a comparison
                // with a CASE or NULL that folds to NULL would otherwise reach the predicates of the
                // operators above as a comparison with NULL, which Calcite's metadata rejects with an
                // AssertionError.
                hep(new HepProgramBuilder().addMatchOrder(HepMatchOrder.BOTTOM_UP)
                        .addRuleInstance(CoreRules.FILTER_REDUCE_EXPRESSIONS).build()),
                hep(new HepProgramBuilder().addRuleCollection(SIMPLIFY).build()),
                hep(new HepProgramBuilder()
                        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                        .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
                        .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
                        .build()),
                hep(new HepProgramBuilder().addRuleInstance(DenseProbeRotationRule.INSTANCE).build()),
                (planner, rel, traits, materializations, lattices) ->
                        new RelFieldTrimmer(null, builder(rel)).trim(rel),
                hep(new HepProgramBuilder().addRuleCollection(cleanup()).build()),
                (planner, rel, traits, materializations, lattices) -> UnsupportedConstructs.check(rel),
                Programs.ofRules(RuleSets.ofList(physical)));
    }

    /**
     * What trimming leaves to tidy: the projections it puts between operators merge or go, filters
     * move past them and into joins again. Not the whole simplification a second time: on the 22
     * TPC-H and 13 SSB queries it changed no plan and cost a quarter of the planning time. Not
     * merging projections into aggregates either: the trimmed projection under an aggregate is what
     * lets its scan read only the columns it needs.
     */
    private static List<RelOptRule> cleanup() {
        return List.of(CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE, CoreRules.FILTER_PROJECT_TRANSPOSE,
                CoreRules.FILTER_MERGE, CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH);
    }

    private static Program hep(HepProgram program) {
        return Programs.of(program, true, StarlingMetadata.PROVIDER);
    }

    private static RelBuilder builder(org.apache.calcite.rel.RelNode rel) {
        return RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
    }
}
