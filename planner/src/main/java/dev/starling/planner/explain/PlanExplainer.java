package dev.starling.planner.explain;

import dev.starling.exec.accel.Placement;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.UnionNode;
import java.util.function.Function;

/**
 * Prints an exec plan as a tree, one node per line, two spaces of indentation per level. A
 * pipeline runs from a scan up to the next breaker (a join build, both inputs of a join that marks
 * its probe rows, an aggregation, a sort, a union, or the result); the top node of each pipeline is
 * marked with its number and backend: an aggregation's input pipeline where {@code placement}
 * puts it (with the reason), every other pipeline on the CPU.
 */
public final class PlanExplainer {
    private static final Placement CPU = Placement.cpu("");
    private final StringBuilder out = new StringBuilder();
    private final Function<AggregateNode, Placement> placement;
    private int pipelines;

    private PlanExplainer(Function<AggregateNode, Placement> placement) {
        this.placement = placement;
    }

    public static String explain(PlanNode plan) {
        return explain(plan, a -> CPU);
    }

    public static String explain(PlanNode plan, Function<AggregateNode, Placement> placement) {
        PlanExplainer e = new PlanExplainer(placement);
        e.print(plan, 0, CPU);
        return e.out.toString();
    }

    /** {@code pipelineTop}: where the pipeline this node tops runs, or null when it tops none. */
    private void print(PlanNode node, int depth, Placement pipelineTop) {
        out.append("  ".repeat(depth)).append(node.describe());
        if (pipelineTop != null) {
            out.append("  [pipeline ").append(pipelines++).append(", ").append(pipelineTop.describe()).append(']');
        }
        out.append('\n');
        for (int i = 0; i < node.inputs().size(); i++) {
            Placement child = !endsPipeline(node, i) ? null
                    : node instanceof AggregateNode a ? placement.apply(a) : CPU;
            print(node.inputs().get(i), depth + 1, child);
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
