package dev.starling.exec.run;

import dev.starling.exec.BackendMode;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Placer;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.UnionNode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A physical plan cut into pipelines at its breakers, each with where it runs, decided once before
 * anything runs (DuckDB's pipeline building is the model). A pipeline runs from a source (a scan,
 * or a breaker's materialized result) up to its top node, whose rows feed one sink: the query's
 * result, a join's table, an aggregation, a sort, a union, or the table of a join that marks its
 * probe rows. The executor runs exactly this graph, and EXPLAIN prints it. Pipelines are numbered
 * in plan order, the result's first.
 */
public final class PipelineGraph {

    /** What a pipeline's rows feed. */
    public enum Role {
        RESULT, AGGREGATE_INPUT, SORT_INPUT, UNION_INPUT, JOIN_BUILD, MARKED_PROBE, MARKING_BUILD;

        /** Whether an accelerator may take pipelines of this role; the others run on the CPU. */
        public boolean offered() {
            return switch (this) {
                case RESULT, AGGREGATE_INPUT, SORT_INPUT, UNION_INPUT -> true;
                case JOIN_BUILD, MARKED_PROBE, MARKING_BUILD -> false;
            };
        }
    }

    /** Pipeline {@code id}, whose rows are {@code top}'s. */
    public record Pipeline(int id, PlanNode top, Role role, Placement placement) { }

    private static final Placement BUILT_ON_CPU = Placement.cpu("join tables are built on the CPU");

    private final PlanNode root;
    private final Settings settings;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final Map<PlanNode, Pipeline> byTop = new IdentityHashMap<>();

    private PipelineGraph(PlanNode root, Settings settings) {
        this.root = root;
        this.settings = settings;
    }

    /** {@code root}'s pipelines, the offered ones placed by {@code placer} under {@code settings}. */
    public static PipelineGraph of(PlanNode root, Placer placer, Settings settings) {
        PipelineGraph g = new PipelineGraph(root, settings);
        g.add(root, Role.RESULT, placer.rows(root, settings));
        g.cut(root, placer);
        return g;
    }

    /** {@code root}'s pipelines, all on the CPU. */
    public static PipelineGraph cpu(PlanNode root) {
        return of(root, Placer.cpu(""), Settings.DEFAULT.withBackend(BackendMode.CPU));
    }

    private void add(PlanNode top, Role role, Placement placement) {
        Pipeline p = new Pipeline(pipelines.size(), top, role, placement);
        pipelines.add(p);
        byTop.putIfAbsent(top, p);
    }

    private void cut(PlanNode node, Placer placer) {
        List<PlanNode> inputs = node.inputs();
        for (int i = 0; i < inputs.size(); i++) {
            PlanNode input = inputs.get(i);
            boolean first = i == 0;
            switch (node) {
                case AggregateNode a -> add(input, Role.AGGREGATE_INPUT, placer.aggregate(a, settings));
                case SortNode s -> add(input, Role.SORT_INPUT, placer.rows(input, settings));
                case UnionNode u -> add(input, Role.UNION_INPUT, placer.rows(input, settings));
                case HashJoinNode j when j.markProbe() ->
                        add(input, first ? Role.MARKED_PROBE : Role.MARKING_BUILD, BUILT_ON_CPU);
                case HashJoinNode j when !first -> add(input, Role.JOIN_BUILD, BUILT_ON_CPU);
                default -> { }
            }
            cut(input, placer);
        }
    }

    public PlanNode root() {
        return root;
    }

    /** The settings it was placed under. */
    public Settings settings() {
        return settings;
    }

    public List<Pipeline> pipelines() {
        return List.copyOf(pipelines);
    }

    /** The pipeline whose top node is {@code node}, if one is. */
    public Optional<Pipeline> topping(PlanNode node) {
        return Optional.ofNullable(byTop.get(node));
    }

    /**
     * The pipeline whose top node is {@code node}, which must be one: a breaker's input, or a plan
     * the accelerator hands back to run on the CPU (its dimensions' build sides), which is not
     * part of the graph and runs on the CPU.
     */
    Pipeline pipeline(PlanNode node, Role role) {
        Pipeline p = byTop.get(node);
        return p != null ? p : new Pipeline(-1, node, role, BUILT_ON_CPU);
    }

    /** Whether any pipeline runs on the accelerator. */
    public boolean accelerated() {
        return pipelines.stream().anyMatch(p -> p.placement().accelerated());
    }
}
