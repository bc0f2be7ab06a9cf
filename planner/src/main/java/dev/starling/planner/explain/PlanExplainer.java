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
 * marked with its number and backend, with the reason: an aggregation's input pipeline where
 * {@code aggregates} puts it, a pipeline of result rows (the query's, a sort's or a union's input)
 * where {@code rows} puts it, a join's build side on the CPU.
 */
public final class PlanExplainer {
    private static final Placement CPU = Placement.cpu("");
    private final StringBuilder out = new StringBuilder();
    private final Function<AggregateNode, Placement> aggregates;
    private final Function<PlanNode, Placement> rows;
    private int pipelines;

    private PlanExplainer(Function<AggregateNode, Placement> aggregates, Function<PlanNode, Placement> rows) {
        this.aggregates = aggregates;
        this.rows = rows;
    }

    public static String explain(PlanNode plan) {
        return explain(plan, a -> CPU, r -> CPU);
    }

    public static String explain(PlanNode plan, Function<AggregateNode, Placement> aggregates,
                                 Function<PlanNode, Placement> rows) {
        PlanExplainer e = new PlanExplainer(aggregates, rows);
        e.print(plan, 0, rows.apply(plan));
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
            Placement child = !endsPipeline(node, i) ? null : switch (node) {
                case AggregateNode a -> aggregates.apply(a);
                case SortNode s -> rows.apply(s.input());
                case UnionNode u -> rows.apply(u.inputs().get(i));
                default -> CPU;
            };
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
