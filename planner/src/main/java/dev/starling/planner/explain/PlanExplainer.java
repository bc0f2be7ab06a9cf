package dev.starling.planner.explain;

import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.UnionNode;

/**
 * Prints an exec plan as a tree, one node per line, two spaces of indentation per level. A
 * pipeline runs from a scan up to the next breaker (a join build, both inputs of a join that marks
 * its probe rows, an aggregation, a sort, a union, or the result); the top node of each pipeline is
 * marked with its number and backend.
 */
public final class PlanExplainer {
    private final StringBuilder out = new StringBuilder();
    private int pipelines;

    private PlanExplainer() {
    }

    public static String explain(PlanNode plan) {
        PlanExplainer e = new PlanExplainer();
        e.print(plan, 0, true);
        return e.out.toString();
    }

    private void print(PlanNode node, int depth, boolean pipelineTop) {
        out.append("  ".repeat(depth)).append(node.describe());
        if (pipelineTop) {
            out.append("  [pipeline ").append(pipelines++).append(", backend=cpu]");
        }
        out.append('\n');
        for (int i = 0; i < node.inputs().size(); i++) {
            print(node.inputs().get(i), depth + 1, endsPipeline(node, i));
        }
    }

    /** Whether input {@code i} of {@code node} is consumed by a pipeline breaker. */
    private static boolean endsPipeline(PlanNode node, int i) {
        return switch (node) {
            case HashJoinNode j -> i == 1 || j.markProbe();
            case AggregateNode a -> true;
            case SortNode s -> true;
            case UnionNode u -> true;
            default -> false;
        };
    }
}
