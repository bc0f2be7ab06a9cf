package dev.starling.planner.explain;

import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.plan.PlanNode;

/**
 * Prints a plan's pipeline graph as a tree, one node per line, two spaces of indentation per
 * level; the top node of each pipeline is marked with its number and where it runs, with the
 * reason (see {@link PipelineGraph}): what EXPLAIN shows is what the executor runs.
 */
public final class PlanExplainer {
    private final StringBuilder out = new StringBuilder();
    private final PipelineGraph graph;

    private PlanExplainer(PipelineGraph graph) {
        this.graph = graph;
    }

    /** {@code plan} with all its pipelines on the CPU. */
    public static String explain(PlanNode plan) {
        return explain(PipelineGraph.cpu(plan));
    }

    public static String explain(PipelineGraph graph) {
        PlanExplainer e = new PlanExplainer(graph);
        e.print(graph.root(), 0);
        return e.out.toString();
    }

    private void print(PlanNode node, int depth) {
        out.append("  ".repeat(depth)).append(node.describe());
        graph.topping(node).ifPresent(p -> out.append("  [pipeline ").append(p.id()).append(", ")
                .append(p.placement().describe()).append(']'));
        out.append('\n');
        for (PlanNode input : node.inputs()) {
            print(input, depth + 1);
        }
    }
}
