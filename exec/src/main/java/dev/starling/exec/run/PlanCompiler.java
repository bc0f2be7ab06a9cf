package dev.starling.exec.run;

import dev.starling.exec.pipeline.MaterializedSource;
import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.exec.pipeline.Part;
import dev.starling.exec.pipeline.PipelineRunner;
import dev.starling.exec.pipeline.SharedBuilds;
import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.pipeline.Stream;
import dev.starling.exec.QueryContext;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.AcceleratorMissingException;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.pipeline.SharedBuild;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.op.CollectSink;
import dev.starling.exec.op.DenseKeyFilter;
import dev.starling.exec.op.FilterOperator;
import dev.starling.exec.op.HashAggregateSink;
import dev.starling.exec.op.HashJoinProbe;
import dev.starling.exec.op.JoinBuildSink;
import dev.starling.exec.op.JoinTable;
import dev.starling.exec.op.LimitOperator;
import dev.starling.exec.op.ProbeMarkSink;
import dev.starling.exec.op.ProjectOperator;
import dev.starling.exec.op.ScanSource;
import dev.starling.exec.op.SortSink;
import dev.starling.exec.op.ValuesBatch;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.LimitNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.UnionNode;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.Catalog;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Runs a plan's pipeline graph. Compiling a node yields the stream that feeds its parent; the
 * pipelines below a breaker (join build sides, aggregation and sort inputs) run to completion
 * during compilation, so every build is finished before a probe pipeline that needs it starts.
 * Each pipeline runs where the graph placed it: an aggregation, or a pipeline of result rows,
 * placed on the accelerator runs there with the plan made for it, over the build sides its plan
 * names, run here to their end before it starts (the accelerator calls nothing back); one it
 * shares runs there and here at once; one the accelerator hands back (out of device memory, a case
 * its kernels leave to the CPU) runs here. Where each ran is recorded in the query's context.
 */
public final class PlanCompiler {
    /** Where a pipeline ran that the accelerator handed back to the CPU. */
    public static final String HANDED_BACK = "cpu, handed back";
    private final PipelineRunner runner;
    private final Catalog catalog;
    private final QueryContext ctx;
    private final Accelerator accelerator;
    private final PipelineGraph graph;
    /** Scans, while their pipeline compiles, whose chunks the CPU workers share with the accelerator. */
    private final Map<ScanNode, MorselDispatcher> sharedScans = new IdentityHashMap<>();
    /** Join build sides, while their pipeline compiles, whose tables the accelerator builds for the CPU workers too. */
    private final Map<PlanNode, SharedBuilds> sharedTables = new IdentityHashMap<>();
    /** Aggregations the accelerator handed back whose groups the plan above them is computed from ({@link #computedFromGroups}). */
    private final Set<AggregateNode> handedBack = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Rows of plans that a device plan reads and a CPU join builds from, computed once for both. */
    private final Map<PlanNode, Batch> readTwice = new IdentityHashMap<>();

    public PlanCompiler(PipelineRunner runner, Catalog catalog, QueryContext ctx, Accelerator accelerator,
                        PipelineGraph graph) {
        this.runner = runner;
        this.catalog = catalog;
        this.ctx = ctx;
        this.accelerator = accelerator;
        this.graph = graph;
    }

    /** The stream of the graph's result rows. */
    public Stream compile() {
        return top(graph.root(), all(graph.root()));
    }

    /** A pipeline whose rows are a result (the query's, a sort's or a union's input): the accelerator's when placed there. */
    private Stream top(PlanNode node, BitSet needed) {
        return pipelineRows(node, PipelineGraph.Role.RESULT, needed, List.of());
    }

    /**
     * The rows of the pipeline topped by {@code node} (of {@code role}), or of projections over its
     * top (a dimension as a device plan reads it): the accelerator's when the graph placed them there
     * as a pipeline of rows and it did not hand them back (projected here), else compiled here with
     * the columns {@code needed} and dense-key filters {@code pushed}.
     */
    private Stream pipelineRows(PlanNode node, PipelineGraph.Role role, BitSet needed, List<DenseKeyFilter.Pushed> pushed) {
        PipelineGraph.Pipeline p = graph.pipeline(node, role);
        if (graph.rowsOnDevice(p)) {
            Optional<Batch> rows = deviceRows(p, p.top(), p.top() == node ? needed : all(p.top()));
            if (rows.isPresent()) {
                return projected(node, p.top(), Stream.of(new MaterializedSource(rows.get()), p.top().output(), false));
            }
        } else if (!graph.handsOnDeviceResult(p.top())) {
            ctx.ran(p.id(), "cpu");
        }
        return compile(node, needed, pushed);
    }

    /** {@code view}'s rows: those of {@code top}, {@code rows}, under the projections between them. */
    private static Stream projected(PlanNode view, PlanNode top, Stream rows) {
        if (view == top) {
            return rows;
        }
        ProjectNode p = (ProjectNode) view;
        return projected(p.input(), top, rows).then(() -> new ProjectOperator(p.expressions(), all(p)), p.output());
    }

    /**
     * Pipeline {@code p}'s rows (those of {@code node}) from the accelerator, the columns in
     * {@code needed} at least, or empty when it handed them back.
     */
    private Optional<Batch> deviceRows(PipelineGraph.Pipeline p, PlanNode node, BitSet needed) {
        DeviceInputs inputs = inputs(p.placement().plan());
        long start = System.nanoTime();
        Optional<Batch> rows = accelerator(p).rows(node, p.placement().plan(), inputs, needed, ctx);
        measured(p.id(), start, rows);
        held(rows);
        ctx.ran(p.id(), ranOn(p.placement(), rows.isPresent()));
        if (rows.isPresent()) {
            ranDeviceBuilds(p.placement().plan());
        }
        return rows;
    }

    /**
     * Sort {@code s}'s rows, with the columns in {@code needed} at least: from the accelerator in its
     * order when the graph placed its input there to be sorted (the pipeline the sort tops ran where
     * they were sorted; a key nothing above reads need not come back), else sorted here.
     */
    private Stream sorted(SortNode s, BitSet needed) {
        if (graph.sortedOnDevice(s)) {
            Optional<Batch> rows = deviceRows(graph.pipeline(s.input(), PipelineGraph.Role.SORT_INPUT), s.input(), needed);
            handedOn(s, rows.isPresent() ? "gpu" : HANDED_BACK);
            if (rows.isPresent()) {
                return Stream.of(new MaterializedSource(rows.get()), s.output(), true);
            }
        }
        Stream input = graph.sortedOnDevice(s) ? compile(s.input(), all(s.input()), List.of()) : top(s.input(), all(s.input()));
        Optional<Placement> byDevice = graph.sortedByDevice(s);
        int feeding = graph.pipeline(s.input(), PipelineGraph.Role.SORT_INPUT).id();
        if (byDevice.isPresent()) {
            CollectSink collected = new CollectSink(s.input().output());
            run(feeding, input, collected);
            Batch rows = collected.result();
            long start = System.nanoTime();
            Optional<int[]> order = accelerator(feeding, byDevice.get().plan()).sort(s, rows, byDevice.get().plan(), ctx);
            graph.handingOn(s).forEach(p -> ctx.profile().measured(p.id(), System.nanoTime() - start,
                    order.map(o -> o.length).orElse(0)));
            handedOn(s, order.isPresent() ? "gpu" : HANDED_BACK);
            if (order.isPresent()) {
                return Stream.of(new MaterializedSource(rows.gather(order.get(), order.get().length)), s.output(), true);
            }
            input = Stream.of(new MaterializedSource(rows), s.input().output(), false);
        }
        SortSink sink = new SortSink(s);
        run(feeding, input, sink);
        return Stream.of(new MaterializedSource(sink.result()), s.output(), true);
    }

    /** The accelerator that runs pipeline {@code p}, placed on it. */
    private Accelerator accelerator(PipelineGraph.Pipeline p) {
        return accelerator(p.id(), p.placement().plan());
    }

    /** The accelerator that runs the work of pipeline {@code id} (or of its sink) planned as {@code plan}. */
    private Accelerator accelerator(int id, DevicePlan plan) {
        if (accelerator == null) {
            throw new AcceleratorMissingException(id, plan);
        }
        return accelerator;
    }

    /**
     * Compiles {@code node} so that its batches carry the columns in {@code needed}; the others may
     * be null. Asking each input only for what its parent reads keeps scans from loading, and joins
     * from gathering, columns that nothing uses. {@code pushed} are dense joins above {@code node}
     * whose probe codes are columns of {@code node}'s output, passed down to the scan that reads them.
     */
    private Stream compile(PlanNode node, BitSet needed, List<DenseKeyFilter.Pushed> pushed) {
        ctx.checkCancelled();
        if (graph.computedOnDevice(node) && !handedBack.contains(PipelineGraph.groupsUnder(node))) {
            return computedFromGroups(node, needed, pushed);
        }
        return switch (node) {
            case ScanNode s -> Stream.of(new ScanSource(s, catalog, ctx, needed, pushed, sharedScans.get(s)), s.output(), false);
            case FilterNode f -> {
                Stream in = compile(f.input(), with(needed, ExprCompiler.columnsOf(f.condition())), pushed);
                yield in.then(() -> new FilterOperator(f.condition()), in.fields());
            }
            case ProjectNode p -> {
                BitSet inputNeeded = new BitSet();
                needed.stream().forEach(i -> inputNeeded.or(bits(ExprCompiler.columnsOf(p.expressions().get(i)))));
                // A projected plain column holds its input column's values, so a filter on it holds on the input.
                List<DenseKeyFilter.Pushed> inputPushed = pushed.stream()
                        .filter(f -> p.expressions().get(f.column()) instanceof ColumnRef)
                        .map(f -> new DenseKeyFilter.Pushed(((ColumnRef) p.expressions().get(f.column())).index(), f.table()))
                        .toList();
                yield compile(p.input(), inputNeeded, inputPushed).then(() -> new ProjectOperator(p.expressions(), needed), p.output());
            }
            case HashJoinNode j -> {
                int probeWidth = j.probe().output().size();
                BitSet combined = with(needed, j.residual() == null ? new int[0] : ExprCompiler.columnsOf(j.residual()));
                BitSet probeNeeded = with(combined.get(0, probeWidth), j.probeKeys());
                BitSet buildNeeded = with(combined.get(probeWidth, Math.max(probeWidth, combined.length())), j.buildKeys());
                if (j.markProbe()) {
                    yield markProbeRows(j, probeNeeded, buildNeeded, pushed);
                }
                JoinTable table = joinTable(j, buildNeeded);
                // Every join output row carries its probe row's columns unchanged, so a probe-column
                // condition from above holds for the output rows exactly when it holds for the probe row.
                List<DenseKeyFilter.Pushed> probePushed = new ArrayList<>();
                pushed.stream().filter(p -> p.column() < probeWidth).forEach(probePushed::add);
                if (j.dense() && (j.kind() == JoinKind.INNER || j.kind() == JoinKind.SEMI)) {
                    probePushed.add(new DenseKeyFilter.Pushed(j.probeKeys()[0], table));
                }
                yield compile(j.probe(), probeNeeded, probePushed).then(() -> new HashJoinProbe(j, table, combined), j.output());
            }
            // an aggregation of groups the accelerator handed back (an extreme of them) runs here with them
            case AggregateNode a -> Stream.of(new MaterializedSource((handedBack.contains(PipelineGraph.groupsUnder(a))
                    ? Optional.<Batch>empty() : accelerate(a)).orElseGet(() -> aggregateOnCpu(a))), a.output(), false);
            case SortNode s -> sorted(s, needed);
            case LimitNode l -> {
                Stream in = compile(l.input(), needed, List.of());
                LimitOperator.Budget budget = new LimitOperator.Budget(l.offset(), l.limit());
                yield in.then(() -> new LimitOperator(budget), in.fields());
            }
            case ValuesNode v -> Stream.of(new MaterializedSource(ValuesBatch.of(v)), v.output(), false);
            case UnionNode u -> {
                List<Part> parts = new ArrayList<>();
                for (PlanNode input : u.inputs()) {
                    parts.addAll(top(input, needed).parts());
                }
                yield new Stream(parts, u.output(), false);
            }
        };
    }

    /**
     * The rows of {@code node}, computed from the groups of the aggregation under it: by the
     * accelerator with them, or, when it handed them back, here from the groups the CPU computes.
     */
    private Stream computedFromGroups(PlanNode node, BitSet needed, List<DenseKeyFilter.Pushed> pushed) {
        AggregateNode a = PipelineGraph.groupsUnder(node);
        Optional<Batch> rows = accelerate(a);
        if (rows.isPresent()) {
            return Stream.of(new MaterializedSource(rows.get()), node.output(), false);
        }
        handedBack.add(a);
        return compile(node, needed, pushed);
    }

    /** The join's table: the one the accelerator shares with the CPU workers, else built here. */
    private JoinTable joinTable(HashJoinNode j, BitSet buildNeeded) {
        SharedBuilds shared = sharedTables.get(j.build());
        Optional<SharedBuild> published = shared == null ? Optional.empty() : shared.await(j.build(), ctx);
        if (published.isPresent()) {
            return JoinTable.shared(j, published.get());
        }
        JoinBuildSink build = new JoinBuildSink(j);
        Stream rows = graph.readByDeviceAndJoin(j.build())
                ? Stream.of(new MaterializedSource(rowsOf(j.build())), j.build().output(), false)
                : pipelineRows(j.build(), PipelineGraph.Role.JOIN_BUILD, buildNeeded, List.of());
        run(graph.pipeline(j.build(), PipelineGraph.Role.JOIN_BUILD).id(), rows, build);
        return build.table();
    }

    /**
     * A {@code markProbe} join: the probe side into a table, the build side streamed through it to
     * mark probe rows, the kept probe rows served from memory. Filters pushed from above concern
     * probe columns, which the join passes on unchanged; a dense join's build rows whose code has no
     * probe row can mark nothing, so the build scan skips them.
     */
    private Stream markProbeRows(HashJoinNode j, BitSet probeNeeded, BitSet buildNeeded,
                                 List<DenseKeyFilter.Pushed> pushed) {
        JoinBuildSink probeTable = new JoinBuildSink(j);
        Stream probe = pipelineRows(j.probe(), PipelineGraph.Role.MARKED_PROBE, probeNeeded, pushed);
        run(graph.pipeline(j.probe(), PipelineGraph.Role.MARKED_PROBE).id(), probe, probeTable);
        JoinTable table = probeTable.table();
        List<DenseKeyFilter.Pushed> buildPushed = j.dense()
                ? List.of(new DenseKeyFilter.Pushed(j.buildKeys()[0], table)) : List.of();
        BitSet residualColumns = j.residual() == null ? new BitSet() : bits(ExprCompiler.columnsOf(j.residual()));
        ProbeMarkSink marks = new ProbeMarkSink(j, table, residualColumns);
        run(graph.pipeline(j.build(), PipelineGraph.Role.MARKING_BUILD).id(),
                pipelineRows(j.build(), PipelineGraph.Role.MARKING_BUILD, buildNeeded, buildPushed), marks);
        return Stream.of(new MaterializedSource(marks.result()), j.output(), probe.ordered());
    }

    /**
     * The aggregation's rows from the accelerator, alone or sharing the fact rows with the CPU
     * workers, when the graph placed it there and the accelerator did not hand it back.
     */
    private Optional<Batch> accelerate(AggregateNode a) {
        PipelineGraph.Pipeline p = graph.pipeline(a.input(), PipelineGraph.Role.AGGREGATE_INPUT);
        Placement where = graph.runsWhere(p);
        Optional<Batch> result = Optional.empty();
        boolean accelerated = false;
        if (where.shared()) {
            DeviceInputs inputs = inputs(where.plan());
            long start = System.nanoTime();
            Optional<Accelerator.SharedPart> part = accelerator(p).share(a, where.plan(), inputs, ctx);
            if (part.isPresent()) {
                CoProcessedAggregate shared = new CoProcessedAggregate(a, part.get(), runner, ctx);
                result = Optional.of(shared.run((morsels, tables) -> aggregateInput(a, part.get().fact(), morsels, tables),
                        () -> aggregateOnCpu(a)));
                accelerated = shared.accelerated();
                if (accelerated) {
                    measured(p.id(), start, result);
                    held(result);
                }
            }
        } else if (where.accelerated()) {
            DeviceInputs inputs = inputs(where.plan());
            long start = System.nanoTime();
            result = accelerator(p).aggregate(a, where.plan(), inputs, ctx);
            measured(p.id(), start, result);
            held(result);
            accelerated = result.isPresent();
        }
        ctx.ran(p.id(), ranOn(where, accelerated));
        handedOn(a, ranOn(where, accelerated));
        if (accelerated) {
            ranDeviceBuilds(where.plan());
        }
        return result;
    }

    /** Records where the pipeline that only hands on {@code breaker}'s result ran, if one does: {@code device}. */
    private void handedOn(PlanNode breaker, String device) {
        graph.handingOn(breaker).forEach(p -> ctx.ran(p.id(), device));
    }

    /** Records that the join inputs device plan {@code plan} builds itself ran on the GPU with it. */
    private void ranDeviceBuilds(DevicePlan plan) {
        graph.deviceBuilds(plan).forEach(build -> ctx.ran(build.id(), "gpu"));
    }

    /** Where a pipeline placed {@code where} ran: there, or on the CPU when the accelerator handed it back. */
    private static String ranOn(Placement where, boolean accelerated) {
        return accelerated || !where.accelerated() ? where.device() : HANDED_BACK;
    }

    private Batch aggregateOnCpu(AggregateNode a) {
        HashAggregateSink sink = new HashAggregateSink(a);
        run(graph.pipeline(a.input(), PipelineGraph.Role.AGGREGATE_INPUT).id(),
                compile(a.input(), aggregateInputNeeded(a), List.of()), sink);
        return sink.result();
    }

    /**
     * The aggregation's input pipeline with {@code fact} reading the chunks {@code morsels} gives it
     * and the joins in {@code tables} probing the accelerator's tables.
     */
    private Stream aggregateInput(AggregateNode a, ScanNode fact, MorselDispatcher morsels, SharedBuilds tables) {
        sharedScans.put(fact, morsels);
        tables.builds().forEach(b -> sharedTables.put(b, tables));
        try {
            return compile(a.input(), aggregateInputNeeded(a), List.of());
        } finally {
            sharedScans.remove(fact);
            tables.builds().forEach(sharedTables::remove);
        }
    }

    private static BitSet aggregateInputNeeded(AggregateNode a) {
        BitSet needed = bits(a.groupKeys());
        for (AggregateNode.AggCall call : a.calls()) {
            needed.or(bits(IntStream.of(call.argument(), call.filter()).filter(i -> i >= 0).toArray()));
        }
        return needed;
    }

    /**
     * What an accelerated pipeline reads, run here before it starts: the build sides its plan names,
     * each to its end as a build pipeline is, and the catalog.
     */
    private DeviceInputs inputs(DevicePlan plan) {
        long start = System.nanoTime();
        List<Batch> builds = new ArrayList<>();
        for (PlanNode input : plan.inputs()) {
            builds.add(rowsOf(input));
        }
        return new DeviceInputs(builds, catalog, (System.nanoTime() - start) / 1e6);
    }

    /** {@code input}'s rows, every column, run to its end; kept for the second reader when a device plan and a join both read them. */
    private Batch rowsOf(PlanNode input) {
        Batch kept = readTwice.get(input);
        if (kept != null) {
            return kept;
        }
        CollectSink sink = new CollectSink(input.output());
        run(graph.pipeline(input, PipelineGraph.Role.JOIN_BUILD).id(),
                pipelineRows(input, PipelineGraph.Role.JOIN_BUILD, all(input), List.of()), sink);
        if (graph.readByDeviceAndJoin(input)) {
            readTwice.put(input, sink.result());
        }
        return sink.result();
    }

    /** Runs pipeline {@code id}'s {@code stream} into {@code sink}, recording its time and the rows it hands on. */
    private <L> void run(int id, Stream stream, Sink<L> sink) {
        long start = System.nanoTime();
        CountedSink<L> counted = new CountedSink<>(sink);
        runner.run(stream, counted, ctx);
        ctx.profile().measured(id, System.nanoTime() - start, counted.rows());
    }

    /** Counts rows the accelerator gave, now in host memory, to what the query holds ({@code memory_limit}). */
    private void held(Optional<Batch> rows) {
        rows.ifPresent(b -> ctx.hold(b.bytes()));
    }

    /** Records the accelerator's run of pipeline {@code id} that began at {@code start} and gave {@code rows} (none: handed back). */
    private void measured(int id, long start, Optional<Batch> rows) {
        ctx.profile().measuredOnDevice(id, System.nanoTime() - start, rows.map(Batch::rows).orElse(0));
    }

    private static BitSet all(PlanNode node) {
        BitSet b = new BitSet();
        b.set(0, node.output().size());
        return b;
    }

    private static BitSet bits(int[] columns) {
        BitSet b = new BitSet();
        for (int c : columns) {
            b.set(c);
        }
        return b;
    }

    private static BitSet with(BitSet a, int[] columns) {
        BitSet b = bits(columns);
        b.or(a);
        return b;
    }
}
