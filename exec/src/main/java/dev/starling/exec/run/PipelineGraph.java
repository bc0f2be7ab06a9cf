package dev.starling.exec.run;

import dev.starling.exec.BackendMode;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Placer;
import dev.starling.exec.Settings;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.LimitNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.UnionNode;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

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
    private static final String ROWS_ON_GPU = "its rows from the GPU, the join's table built from them on the CPU";
    private static final String ON_BOTH = ", and on the CPU for the CPU workers' joins";

    private final PlanNode root;
    private final PlanEstimates estimates;
    private final Settings settings;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final Map<PlanNode, Pipeline> byTop = new IdentityHashMap<>();
    /** Join build sides whose rows a device plan reads too ({@link #readByDeviceAndJoin}), found once the graph is cut. */
    private final Set<PlanNode> readTwice = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Join inputs the CPU builds a table from whose rows the accelerator computes ({@link #orRowsOnDevice}). */
    private final Set<PlanNode> rowsOnDevice = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Aggregation inputs inside a join build side that the accelerator builds itself ({@link #runsWhere}). */
    private final Set<PlanNode> withinDeviceBuilds = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Sorts whose input's rows come back from the accelerator sorted ({@link #sortedOnDevice}). */
    private final Set<PlanNode> sortedOnDevice = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Sorts that the accelerator orders rows for, the CPU handing it their keys, with its placement ({@link #sortedByDevice}). */
    private final Map<PlanNode, Placement> sortedByDevice = new IdentityHashMap<>();
    /** Breakers whose work the accelerator does, by the pipelines that hand their result on ({@link #handingOn}). */
    private final Map<PlanNode, List<Pipeline>> handingOn = new IdentityHashMap<>();
    /**
     * Device plans' inputs that are projections of a pipeline's rows (a dimension as its kernel
     * reads it), by that pipeline, whose work computing them is.
     */
    private final Map<PlanNode, Pipeline> viewedAs = new IdentityHashMap<>();

    private PipelineGraph(PlanNode root, PlanEstimates estimates, Settings settings) {
        this.root = root;
        this.estimates = estimates;
        this.settings = settings;
    }

    /** {@code root}'s pipelines, the offered ones placed by {@code placer} under {@code settings}, without estimates. */
    public static PipelineGraph of(PlanNode root, Placer placer, Settings settings) {
        return of(root, PlanEstimates.NONE, placer, settings);
    }

    /**
     * {@code root}'s pipelines, the offered ones placed by {@code placer} under {@code settings},
     * which sees the optimizer's {@code estimates} of the plan's rows.
     */
    public static PipelineGraph of(PlanNode root, PlanEstimates estimates, Placer placer, Settings settings) {
        PipelineGraph g = new PipelineGraph(root, estimates, settings);
        Placement top = placer.rows(root, null, estimates, settings);
        g.add(root, Role.RESULT, top);
        g.cut(root, placer, top, GroupsWanted.ALL);
        for (Pipeline p : g.pipelines) {
            if (p.placement().accelerated()) {
                p.placement().plan().inputs().stream().filter(g::isJoinBuild).forEach(g.readTwice::add);
                p.placement().plan().inputs().forEach(g::recordView);
            }
        }
        return g;
    }

    /** {@code root}'s pipelines, all on the CPU. */
    public static PipelineGraph cpu(PlanNode root) {
        return of(root, Placer.cpu(""), Settings.DEFAULT.withBackend(BackendMode.CPU));
    }

    /** Records device plan input {@code input}, if it is projections over a pipeline's top, as that pipeline's rows. */
    private void recordView(PlanNode input) {
        PlanNode under = input;
        while (!byTop.containsKey(under) && under instanceof ProjectNode p) {
            under = p.input();
        }
        if (under != input && byTop.containsKey(under)) {
            viewedAs.put(input, byTop.get(under));
        }
    }

    private void add(PlanNode top, Role role, Placement placement) {
        Pipeline p = new Pipeline(pipelines.size(), top, role, placement);
        pipelines.add(p);
        byTop.putIfAbsent(top, p);
    }

    /**
     * Cuts {@code node}'s inputs into pipelines; {@code within}: the placement of the pipeline
     * {@code node} is part of; {@code wanted}: what the plan above keeps of {@code node}'s rows.
     */
    private void cut(PlanNode node, Placer placer, Placement within, GroupsWanted wanted) {
        List<PlanNode> inputs = node.inputs();
        GroupsWanted wantedOfInputs = wantedOfInput(node, wanted);
        for (int i = 0; i < inputs.size(); i++) {
            PlanNode input = inputs.get(i);
            boolean first = i == 0;
            Placement placement = switch (node) {
                case AggregateNode a when within.accelerated() && within.plan().deviceBuild(a).isPresent() -> {
                    withinDeviceBuilds.add(input);
                    yield within;
                }
                case AggregateNode a -> placer.aggregate(a, computedAbove(a).map(wanted::above).orElse(wanted), estimates,
                        settings);
                case SortNode s -> placer.rows(input, s, estimates, settings);
                case UnionNode u -> placer.rows(input, null, estimates, settings);
                // the CPU builds a table of a marking join's probe side too; a GPU pipeline streams it
                case HashJoinNode j when j.markProbe() || !first -> orRowsOnDevice(input, builtOnDevice(input, within),
                        within, placer);
                default -> null;
            };
            Role role = switch (node) {
                case AggregateNode a -> Role.AGGREGATE_INPUT;
                case SortNode s -> Role.SORT_INPUT;
                case UnionNode u -> Role.UNION_INPUT;
                case HashJoinNode j when j.markProbe() -> first ? Role.MARKED_PROBE : Role.MARKING_BUILD;
                case HashJoinNode j when !first -> Role.JOIN_BUILD;
                default -> null;
            };
            if (role != null) {
                add(input, role, placement);
            }
            if (node instanceof SortNode s && placement.accelerated() && placement.plan().sortsRows()) {
                sortedOnDevice.add(s);
                handsOn(s, placement, "sorted on the GPU by pipeline " + byTop.get(input).id()
                        + ", which hands its rows on in order");
            } else if (node instanceof SortNode s && (s.limit() < 0 || placement.accelerated() || materialized(input))) {
                Placement sort = placer.sort(s, estimates, settings);
                if (sort.accelerated()) {
                    sortedByDevice.put(s, sort);
                    handsOn(s, sort, sort.reason());
                }
            }
            if (node instanceof AggregateNode a && placement.accelerated() && !withinDeviceBuilds.contains(input)) {
                handsOn(a, placement, "the groups of pipeline " + byTop.get(input).id() + ", handed on");
            }
            cut(input, placer, role == null ? within : placement, first ? wantedOfInputs : GroupsWanted.ALL);
        }
    }

    /**
     * The plan over aggregation {@code a}'s groups that tops a pipeline computing its rows from
     * them alone ({@link #groupsUnder}), whose rows stay where that aggregation's work runs
     * ({@link #handsOnResult}), if there is one.
     */
    private Optional<PlanNode> computedAbove(AggregateNode a) {
        return pipelines.stream().map(Pipeline::top).filter(t -> t != a && groupsUnder(t) == a && handsOnResult(t))
                .findFirst();
    }

    /**
     * The aggregation whose groups {@code node} computes its rows from alone, through projections,
     * filters, inner joins with a plan of at most one row (a scalar subquery: TPC-H Q11's fraction
     * of the total) and the extreme of one of their columns ({@link #extremeOfGroups}); null when
     * there is none.
     */
    public static AggregateNode groupsUnder(PlanNode node) {
        return switch (node) {
            case AggregateNode m when extremeOfGroups(m) -> groupsUnder(m.input());
            case AggregateNode a -> a;
            case ProjectNode p -> groupsUnder(p.input());
            case FilterNode f -> groupsUnder(f.input());
            case HashJoinNode j when j.kind() == JoinKind.INNER && !j.markProbe() && atMostOneRow(j.build()) ->
                    groupsUnder(j.probe());
            default -> null;
        };
    }

    /**
     * Whether {@code top} tops a pipeline whose rows, when they are only a breaker's result handed
     * on, stay where that breaker's work ran: the query's result, a sort the accelerator orders, or
     * a join input only an accelerated pipeline reads.
     */
    private boolean handsOnResult(PlanNode top) {
        Pipeline p = byTop.get(top);
        return p != null && (p.role() == Role.RESULT || p.role() == Role.SORT_INPUT && feedsDeviceSort(top)
                || p.role() == Role.JOIN_BUILD && readOnlyByDevice(top));
    }

    /**
     * Records that breaker {@code node}'s work (a sort, an aggregation) runs on the accelerator
     * (placed {@code input}): the pipeline that reads its result, when that pipeline computes nothing
     * (its top is {@code node}, projections picking columns of it or adding constants, as SSB Q2.3's
     * brand that its filter names, or a plan over its groups the
     * accelerator computes, {@link #computedAbove}) and feeds the query's result, a sort the accelerator orders, or a
     * join input that only an accelerated pipeline reads (TPC-H Q22's average balance, a scalar its
     * kernel compares with), only hands on what comes back, so it is shown where that work ran,
     * for {@code reason}; so is the pipeline that feeds an extreme of the groups the accelerator
     * finds on the way ({@link #extremeOfGroups}: TPC-H Q15's best revenue).
     */
    private void handsOn(PlanNode node, Placement input, String reason) {
        for (Pipeline p : pipelines) {
            boolean computed = input.plan().computesAbove(p.top());
            if (handsOnResult(p.top()) && (computed || picksOrAddsConstants(p.top(), node))) {
                show(node, p, new Placement(true, input.shared(), reason + (p.top() == node ? ""
                        : computed ? "; its rows computed from them on the GPU"
                        : projects(p.top(), node, e -> e instanceof ColumnRef) ? " (its columns picked, nothing computed)"
                        : " (its columns picked, constants beside them, nothing computed)"),
                        input.plan()));
                if (computed) {
                    extremesBetween(p.top(), node).forEach(m -> show(node, byTop.get(m.input()),
                            new Placement(true, false, reason + " to the extreme the GPU finds of them", input.plan())));
                }
                return;
            }
        }
    }

    /** Shows pipeline {@code p} as {@code placement}, handing on breaker {@code node}'s result. */
    private void show(PlanNode node, Pipeline p, Placement placement) {
        Pipeline shown = new Pipeline(p.id(), p.top(), p.role(), placement);
        pipelines.set(p.id(), shown);
        byTop.put(p.top(), shown);
        handingOn.computeIfAbsent(node, n -> new ArrayList<>()).add(shown);
    }

    /** The extremes of groups ({@link #extremeOfGroups}) on the way from {@code top} down to {@code node}. */
    private static List<AggregateNode> extremesBetween(PlanNode top, PlanNode node) {
        List<AggregateNode> out = new ArrayList<>();
        for (PlanNode at = top; at != node && at != null; at = at.inputs().isEmpty() ? null : at.inputs().get(0)) {
            if (at instanceof AggregateNode m) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Whether {@code node}'s rows are computed from a breaker's result held in memory (an
     * aggregation's groups, sorted rows) by filters, projections and limits alone, so that holding
     * them all for a sort elsewhere takes no more memory than that result: a top-N over rows
     * streamed from a scan or a join is left to the CPU, whose workers keep only their best rows as
     * they arrive, unless the accelerator computes those rows (they come back from it whole).
     */
    private static boolean materialized(PlanNode node) {
        return switch (node) {
            case AggregateNode a -> true;
            case SortNode s -> true;
            case FilterNode f -> materialized(f.input());
            case ProjectNode p -> materialized(p.input());
            case LimitNode l -> materialized(l.input());
            default -> false;
        };
    }

    /**
     * Whether join input {@code top}'s rows are read by an accelerated pipeline's plan (as they are,
     * their columns picked, or with constants beside them: a scalar's code), which the CPU workers
     * do not share: no table is built from them on the CPU.
     */
    private boolean readOnlyByDevice(PlanNode top) {
        return pipelines.stream().anyMatch(q -> q.placement().accelerated() && !q.placement().shared()
                && q.placement().plan().inputs().stream().anyMatch(in -> picksOrAddsConstants(in, top)));
    }

    /** Whether {@code node} is {@code input}, or projections over it that only pick its columns or add constants. */
    private static boolean picksOrAddsConstants(PlanNode node, PlanNode input) {
        return projects(node, input, e -> e instanceof ColumnRef || e instanceof Literal);
    }

    /** Whether {@code top}'s rows feed a sort the accelerator orders from the host, which they may then only be handed on to. */
    private boolean feedsDeviceSort(PlanNode top) {
        return sortedByDevice.keySet().stream().anyMatch(s -> s.inputs().get(0) == top);
    }

    /** Whether {@code node} is {@code input}, or projections over it whose every expression {@code computesNothing} accepts. */
    private static boolean projects(PlanNode node, PlanNode input, Predicate<Expr> computesNothing) {
        return node == input || node instanceof ProjectNode p && p.expressions().stream().allMatch(computesNothing)
                && projects(p.input(), input, computesNothing);
    }

    /**
     * What {@code node} keeps of its first input's rows, {@code wanted} being what is kept of its
     * own: a filter's condition; an inner join's condition, when its build side is a scalar (at most
     * one row); a sort's first key and limit; the largest or smallest value of one column, which is
     * all an aggregation without group keys may compute of it ({@link #extremeOfOneColumn}); a
     * projection passes on the limit of a column it passes on unchanged. Anything else keeps every row.
     */
    private static GroupsWanted wantedOfInput(PlanNode node, GroupsWanted wanted) {
        return switch (node) {
            case FilterNode f -> new GroupsWanted(f.condition(), null, null);
            case HashJoinNode j when j.kind() == JoinKind.INNER && !j.markProbe() && atMostOneRow(j.build()) ->
                    new GroupsWanted(condition(j), j.build(), null);
            case SortNode s when GroupsWanted.First.of(s) != null -> new GroupsWanted(null, null, GroupsWanted.First.of(s));
            case AggregateNode a when extremeOfOneColumn(a) != null -> new GroupsWanted(null, null, extremeOfOneColumn(a));
            case ProjectNode p when wanted.first() != null
                    && p.expressions().get(wanted.first().column()) instanceof ColumnRef ref -> new GroupsWanted(null,
                    null, new GroupsWanted.First(ref.index(), wanted.first().descending(), wanted.first().count()));
            default -> GroupsWanted.ALL;
        };
    }

    /**
     * Whether {@code m}, an aggregation without group keys, computes only the largest (or only the
     * smallest) value of one column of another aggregation's groups (their columns picked on the
     * way): the first of them in that column's order (TPC-H Q15's best revenue).
     */
    private static boolean extremeOfGroups(AggregateNode m) {
        PlanNode under = m.input();
        while (under instanceof ProjectNode p && p.expressions().stream().allMatch(e -> e instanceof ColumnRef)) {
            under = p.input();
        }
        return extremeOfOneColumn(m) != null && under instanceof AggregateNode;
    }

    /**
     * The first row an aggregation without group keys needs of its input, when all it computes is
     * the largest (or all the smallest) value of one column, with no filter: the first in that
     * column's order, and its ties (TPC-H Q15's best revenue of the suppliers' groups); else null.
     */
    private static GroupsWanted.First extremeOfOneColumn(AggregateNode a) {
        if (a.groupKeys().length > 0 || a.calls().isEmpty()) {
            return null;
        }
        AggregateNode.AggCall first = a.calls().get(0);
        boolean same = a.calls().stream().allMatch(c -> c.function() == first.function() && c.argument() == first.argument()
                && c.filter() < 0);
        return same && (first.function() == AggregateNode.Function.MAX || first.function() == AggregateNode.Function.MIN)
                ? new GroupsWanted.First(first.argument(), first.function() == AggregateNode.Function.MAX, 1) : null;
    }

    /** Whether {@code node} yields at most one row: an aggregation without group keys, under projections and filters. */
    private static boolean atMostOneRow(PlanNode node) {
        return switch (node) {
            case AggregateNode a -> a.groupKeys().length == 0;
            case ProjectNode p -> atMostOneRow(p.input());
            case FilterNode f -> atMostOneRow(f.input());
            case LimitNode l -> l.limit() >= 0 && l.limit() <= 1 || atMostOneRow(l.input());
            default -> false;
        };
    }

    /** The condition a row of {@code j}'s output (probe columns, then build columns) passes: its keys' equalities and its residual. */
    private static Expr condition(HashJoinNode j) {
        List<Field> probe = j.probe().output();
        List<Field> build = j.build().output();
        List<Expr> conjuncts = new ArrayList<>();
        for (int k = 0; k < j.probeKeys().length; k++) {
            Field p = probe.get(j.probeKeys()[k]);
            Field b = build.get(j.buildKeys()[k]);
            conjuncts.add(new Call(Call.Op.EQ, List.of(new ColumnRef(j.probeKeys()[k], p.type(), p.nullable()),
                    new ColumnRef(probe.size() + j.buildKeys()[k], b.type(), b.nullable())), DataType.BOOLEAN,
                    p.nullable() || b.nullable()));
        }
        if (j.residual() != null) {
            conjuncts.add(j.residual());
        }
        return conjuncts.size() == 1 ? conjuncts.get(0) : new Call(Call.Op.AND, conjuncts, DataType.BOOLEAN, true);
    }

    /**
     * Where a join input {@code input} of a pipeline placed {@code within} runs: by the accelerator
     * when its plan builds or streams it (and, when the CPU workers share the pipeline, on the CPU
     * for their joins too), else on the CPU.
     */
    private static Placement builtOnDevice(PlanNode input, Placement within) {
        Optional<String> how = within.accelerated() ? within.plan().deviceBuild(input) : Optional.empty();
        if (how.isEmpty()) {
            return BUILT_ON_CPU;
        }
        return within.shared() ? Placement.both(how.get() + ON_BOTH, within.plan()) : Placement.gpu(how.get(), within.plan());
    }

    /**
     * {@code built}, where a join input {@code input} is built; when that is the CPU, the rows of
     * {@code input} may still come from the accelerator as a pipeline of rows ({@code placer}
     * decides, as for a result's), which the CPU then builds the join's table from: for a join the
     * CPU runs, TPC-H Q20's partsupp rows of the parts it names; for one the accelerator runs
     * (placed {@code within} it), a dimension its plan reads that joins or aggregates (Q20's
     * {@code ps_suppkey} values of those rows, which its Canadian suppliers are looked up among),
     * not one table's scan, which the plan leaves to the CPU for a reason of its own (a hash table
     * past the device memory budget). Where the accelerator was weighed and declined, its reason is
     * shown too.
     */
    private Placement orRowsOnDevice(PlanNode input, Placement built, Placement within, Placer placer) {
        if (built != BUILT_ON_CPU || within.accelerated() && PlanNode.scansOneTable(input)) {
            return built;
        }
        Placement rows = placer.joinInput(input, estimates, settings);
        if (!rows.accelerated()) {
            return placer.weighs(settings) ? Placement.cpu(BUILT_ON_CPU.reason() + "; its rows not from the GPU: "
                    + rows.reason()) : built;
        }
        rowsOnDevice.add(input);
        return Placement.gpu(ROWS_ON_GPU + "; " + rows.reason(), rows.plan());
    }

    /**
     * Whether pipeline {@code p}'s rows come from the accelerator as a pipeline of rows (a result's,
     * a sort's or union's input, or a join input the CPU builds from), rather than its plan building
     * a join input itself or aggregating.
     */
    public boolean rowsOnDevice(Pipeline p) {
        return p.placement().accelerated() && !handsOnDeviceResult(p.top()) && switch (p.role()) {
            case RESULT, SORT_INPUT, UNION_INPUT -> true;
            case AGGREGATE_INPUT -> false;
            case JOIN_BUILD, MARKED_PROBE, MARKING_BUILD -> rowsOnDevice.contains(p.top());
        };
    }

    /** Whether {@code node} is a sort whose input's rows come back from the accelerator sorted, cut to its offset and limit. */
    public boolean sortedOnDevice(PlanNode node) {
        return sortedOnDevice.contains(node);
    }

    /**
     * Where sort {@code node} orders its rows, which reach it on the host, when that is the
     * accelerator, which is handed their keys ({@link dev.starling.exec.accel.Accelerator#sort}).
     */
    public Optional<Placement> sortedByDevice(PlanNode node) {
        return Optional.ofNullable(sortedByDevice.get(node));
    }

    /**
     * Whether {@code node} tops a pipeline that only hands on the result of a breaker whose work the
     * accelerator does where it may (a sort, an aggregation placed there), to the query's result, to
     * a sort the accelerator orders or to a join input only an accelerated pipeline reads: it
     * computes nothing and runs where that work did.
     */
    public boolean handsOnDeviceResult(PlanNode node) {
        return handingOn.values().stream().flatMap(List::stream).anyMatch(p -> p.top() == node);
    }

    /**
     * Whether {@code node}'s rows come from the accelerator, computed from the groups of the
     * aggregation under it ({@link #groupsUnder}), rather than by the CPU from the groups that come back.
     */
    public boolean computedOnDevice(PlanNode node) {
        return groupsUnder(node) instanceof AggregateNode a && byTop.get(a.input()) instanceof Pipeline p
                && p.placement().accelerated() && p.placement().plan().computesAbove(node);
    }

    /** The pipelines that only hand on breaker {@code node}'s result ({@link #handsOnDeviceResult}); none, mostly. */
    public List<Pipeline> handingOn(PlanNode node) {
        return handingOn.getOrDefault(node, List.of());
    }

    /**
     * The join inputs the accelerator runs itself for the pipeline it was handed as {@code plan},
     * and the aggregations' inputs inside them.
     */
    public List<Pipeline> deviceBuilds(DevicePlan plan) {
        return pipelines.stream().filter(p -> (!p.role().offered() || withinDeviceBuilds.contains(p.top()))
                && p.placement().plan() == plan).toList();
    }

    /**
     * Where pipeline {@code p} runs when the executor reaches it: where it was placed, but for an
     * aggregation's input inside a join build side that the accelerator builds itself (TPC-H
     * Q13's orders counted per customer, folded on the GPU by the pipeline that joins them), which
     * the executor reaches only when the accelerator hands that pipeline back, and then runs on the CPU.
     */
    public Placement runsWhere(Pipeline p) {
        return withinDeviceBuilds.contains(p.top()) ? BUILT_ON_CPU : p.placement();
    }

    /**
     * Whether a device plan reads {@code node}'s rows ({@link DevicePlan#inputs}) that a CPU join
     * also builds its table from: a scalar that an aggregation's groups are compared with on the
     * device and joined with on the CPU, whose rows are then computed once for both.
     */
    public boolean readByDeviceAndJoin(PlanNode node) {
        return readTwice.contains(node);
    }

    private boolean isJoinBuild(PlanNode node) {
        Pipeline p = byTop.get(node);
        return p != null && p.role() == Role.JOIN_BUILD;
    }

    public PlanNode root() {
        return root;
    }

    /** The optimizer's estimates of the plan's rows the pipelines were placed with. */
    public PlanEstimates estimates() {
        return estimates;
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
     * an accelerated pipeline reads (its dimensions' build sides as its kernel reads them): the
     * pipeline whose rows it projects, else one that is not part of the graph and runs on the CPU.
     */
    Pipeline pipeline(PlanNode node, Role role) {
        Pipeline p = byTop.getOrDefault(node, viewedAs.get(node));
        return p != null ? p : new Pipeline(-1, node, role, BUILT_ON_CPU);
    }

    /** Whether any pipeline runs on the accelerator. */
    public boolean accelerated() {
        return pipelines.stream().anyMatch(p -> p.placement().accelerated());
    }
}
