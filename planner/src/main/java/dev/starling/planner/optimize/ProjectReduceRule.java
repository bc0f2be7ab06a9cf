package dev.starling.planner.optimize;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rex.RexNode;

/**
 * Calcite's reduction of a projection's expressions, except that an expression that is never NULL
 * stays itself where the reduction would make it a NULL literal. Calcite takes a column compared
 * with a NULL in a join condition ({@code x = NULL}, which no row passes) for a constant NULL, and
 * its planner then rejects the projection whose column type lost NOT NULL with an AssertionError.
 * Such a projection sits over an input with no rows, which the empty-input rules remove later.
 */
final class ProjectReduceRule extends ReduceExpressionsRule.ProjectReduceExpressionsRule {
    static final RelOptRule INSTANCE = new ProjectReduceRule();

    private ProjectReduceRule() {
        super(ProjectReduceExpressionsRuleConfig.DEFAULT);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project project = call.rel(0);
        RelOptPredicateList predicates = call.getMetadataQuery().getPulledUpPredicates(project.getInput());
        List<RexNode> original = project.getProjects();
        List<RexNode> reduced = new ArrayList<>(original);
        if (!reduceExpressions(project, reduced, predicates, false, config.matchNullability(),
                config.treatDynamicCallsAsConstant())) {
            return;
        }
        for (int i = 0; i < reduced.size(); i++) {
            if (!original.get(i).getType().isNullable() && reduced.get(i).getType().isNullable()) {
                reduced.set(i, original.get(i));
            }
        }
        if (reduced.equals(original)) {
            return;
        }
        call.transformTo(call.builder().push(project.getInput()).project(reduced, project.getRowType().getFieldNames())
                .build());
        call.getPlanner().prune(project);
    }
}
