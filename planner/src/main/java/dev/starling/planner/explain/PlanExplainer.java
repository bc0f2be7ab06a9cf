package dev.starling.planner.explain;

import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryProfile;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.Quantities;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.run.StateMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a plan's pipeline graph as a tree, one node per line, two spaces of indentation per
 * level. Each node shows the optimizer's estimate of its rows; a join says how it looks rows up and
 * why that side is built; a breaker (join, aggregation, sort) shows the memory its state is
 * estimated to take. The top node of each pipeline is marked with its number and where it runs,
 * with the reason (see {@link PipelineGraph}): what EXPLAIN shows is what the executor runs.
 * After the plan has run (EXPLAIN ANALYZE), each pipeline also shows what it did.
 */
public final class PlanExplainer {
    private final StringBuilder out = new StringBuilder();
    private final PipelineGraph graph;
    private final PlanEstimates estimates;
    /** What each pipeline did when the plan ran (null: it has not run, as for EXPLAIN). */
    private final QueryContext ran;

    private PlanExplainer(PipelineGraph graph, PlanEstimates estimates, QueryContext ran) {
        this.graph = graph;
        this.estimates = estimates;
        this.ran = ran;
    }

    /** {@code plan} with all its pipelines on the CPU, without estimates. */
    public static String explain(PlanNode plan) {
        return explain(PipelineGraph.cpu(plan), PlanEstimates.NONE);
    }

    public static String explain(PipelineGraph graph, PlanEstimates estimates) {
        PlanExplainer e = new PlanExplainer(graph, estimates, null);
        e.print(graph.root(), 0);
        return e.out.toString();
    }

    /**
     * EXPLAIN ANALYZE: {@code graph}, which has run under {@code ran}, each pipeline followed by
     * where it ran, its time, the rows it handed on and the accelerator's account of its run.
     */
    public static String analyzed(PipelineGraph graph, QueryContext ran) {
        PlanExplainer e = new PlanExplainer(graph, graph.estimates(), ran);
        e.print(graph.root(), 0);
        return e.out.toString();
    }

    private void print(PlanNode node, int depth) {
        out.append("  ".repeat(depth)).append(node.describe());
        List<String> notes = notes(node);
        if (!notes.isEmpty()) {
            out.append("  (").append(String.join("; ", notes)).append(')');
        }
        graph.topping(node).ifPresent(p -> {
            out.append("  [pipeline ").append(p.id()).append(", ").append(p.placement().describe()).append(']');
            if (ran != null) {
                out.append("  {").append(actual(p.id())).append('}');
            }
        });
        out.append('\n');
        for (PlanNode input : node.inputs()) {
            print(input, depth + 1);
        }
    }

    /** What pipeline {@code id} did when the plan ran: where, how long, how many rows, and the accelerator's account. */
    private String actual(int id) {
        String where = ran.ranOn().get(id);
        QueryProfile.Pipeline measured = ran.profile().pipelines().get(id);
        if (where == null && measured == null) {
            return "did not run";
        }
        List<String> parts = new ArrayList<>();
        if (where != null) {
            parts.add("ran on " + where);
        }
        if (measured != null) {
            parts.add(String.format("%.2f ms, %,d rows", measured.millis(), measured.rows()));
            if (measured.device() != null) {
                parts.add(measured.device());
            }
        }
        return String.join("; ", parts);
    }

    private List<String> notes(PlanNode node) {
        List<String> notes = new ArrayList<>();
        estimates.rows(node).ifPresent(rows -> notes.add((node instanceof AggregateNode ? "groups ~" : "rows ~")
                + Quantities.count(rows)));
        if (node instanceof HashJoinNode join) {
            notes.add(lookup(join));
        }
        StateMemory.of(node, estimates).ifPresent(bytes -> notes.add("state ~" + Quantities.bytes(bytes)));
        return notes;
    }

    /** How a join finds its matches, and why the side it builds is that one. */
    private String lookup(HashJoinNode join) {
        String built = estimates.rows(join.markProbe() ? join.probe() : join.build())
                .stream().mapToObj(r -> " (~" + Quantities.count(r) + " rows)").findFirst().orElse("");
        if (join.dense()) {
            return join.markProbe()
                    ? "probe rows marked in an array by row id, " + Quantities.count(join.denseRange()) + " entries"
                    : "build rows looked up by foreign-key code in an array, " + Quantities.count(join.denseRange())
                            + " entries";
        }
        if (join.buildKeys().length == 0) {
            return "nested loop over the build side" + built;
        }
        if (join.markProbe()) {
            return "the probe side is the smaller" + built + ": built into a hash table and marked";
        }
        return join.kind() == JoinKind.LEFT
                ? "hash table over the side that may find no match" + built
                : "hash table over the smaller side" + built;
    }
}
