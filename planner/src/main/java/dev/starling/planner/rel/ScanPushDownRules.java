package dev.starling.planner.rel;

import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;
import org.apache.calcite.util.mapping.Mappings;

/** Moves filters and column selections into scans, where the scan can skip chunks by zone maps and read fewer columns. */
public final class ScanPushDownRules {
    private ScanPushDownRules() {
    }

    public static final List<RelOptRule> ALL = List.of(
            RuleConfig.of("StarlingFilterIntoScan", b -> b.operand(StarlingFilter.class)
                    .oneInput(b2 -> b2.operand(StarlingTableScan.class).noInputs()), FilterIntoScan::new).toRule(),
            RuleConfig.of("StarlingProjectIntoScan", b -> b.operand(StarlingProject.class)
                    .oneInput(b2 -> b2.operand(StarlingTableScan.class).noInputs()), ProjectIntoScan::new).toRule());

    /** Filter(Scan) → Scan with the conjunction of both filters. */
    public static final class FilterIntoScan extends RelRule<RuleConfig> {
        FilterIntoScan(RuleConfig config) {
            super(config);
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            StarlingFilter filter = call.rel(0);
            StarlingTableScan scan = call.rel(1);
            RexNode condition = scan.filter() == null ? filter.getCondition()
                    : RexUtil.composeConjunction(scan.getCluster().getRexBuilder(), List.of(scan.filter(), filter.getCondition()));
            call.transformTo(scan.withFilter(condition));
        }

    }

    /**
     * Project(Scan) → Scan of just the columns the projection (and the scan's filter) reads, under
     * the projection rewritten to them; a projection that only selects distinct columns, including
     * every column the filter reads, disappears into the scan.
     */
    public static final class ProjectIntoScan extends RelRule<RuleConfig> {
        ProjectIntoScan(RuleConfig config) {
            super(config);
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            StarlingProject project = call.rel(0);
            StarlingTableScan scan = call.rel(1);
            RexNode filter = scan.filter();
            ImmutableBitSet filterColumns = filter == null ? ImmutableBitSet.of() : RelOptUtil.InputFinder.bits(filter);
            if (project.isColumnSelection()) {
                List<Integer> kept = project.getProjects().stream().map(p -> ((RexInputRef) p).getIndex()).toList();
                if (kept.stream().distinct().count() == kept.size() && ImmutableBitSet.of(kept).contains(filterColumns)) {
                    call.transformTo(narrow(scan, kept));
                    return;
                }
            }
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null).union(filterColumns);
            if (used.cardinality() == scan.getRowType().getFieldCount()) {
                return;
            }
            List<Integer> kept = used.asList();
            Mappings.TargetMapping mapping = Mappings.target(kept::indexOf, scan.getRowType().getFieldCount(), kept.size());
            call.transformTo(project.copy(project.getTraitSet(), narrow(scan, kept),
                    RexUtil.apply(mapping, project.getProjects()), project.getRowType()));
        }

        /** {@code scan} reading only its fields {@code kept}, in that order. */
        private static StarlingTableScan narrow(StarlingTableScan scan, List<Integer> kept) {
            RexNode filter = scan.filter() == null ? null
                    : RexUtil.apply(Mappings.target(kept::indexOf, scan.getRowType().getFieldCount(), kept.size()),
                            scan.filter());
            return scan.withProjects(ImmutableIntList.copyOf(kept.stream().map(scan.projects()::get).toList()), filter);
        }
    }
}
