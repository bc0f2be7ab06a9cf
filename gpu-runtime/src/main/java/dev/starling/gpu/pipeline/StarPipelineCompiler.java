package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.op.AggregateStates;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.StrDict;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Compiles an aggregation over a star pipeline (a fact scan, filters, projections and INNER/SEMI
 * joins to dimensions), or such a pipeline's rows, into a {@link StarPipeline}, or says why the
 * GPU cannot run it.
 * The pipeline's operators are followed from the fact scan up, each output column kept as an
 * expression over the fact's and the dimensions' columns; predicates and probes are compiled in
 * that order, so a row stops at the first condition it fails.
 */
public final class StarPipelineCompiler {
    /**
     * The values a dimension's digit computed from its key values may take however few rows it
     * has: a small table's keys may span more combinations than it has rows (TPC-H Q16's part
     * brands, types and sizes, 187,500 of them, over 20,000 parts at SF 0.1), and so many group
     * ids still keep the states dense; past them, a digit takes no more values than rows.
     */
    private static final long VALUE_DIGITS = 1 << 20;
    private final List<ColumnOrigin> sources = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<StarPipeline.Dimension> dimensions = new ArrayList<>();
    private final Catalog catalog;
    private ScanNode fact;
    /**
     * Compiling a selection, whose output reads its dimensions' rows by position (so no marks of
     * SEMI or ANTI joins, which have none; folded groups are read by code).
     */
    private boolean selection;
    /** Whether joins to an aggregation's groups may fold them on the GPU ({@link #joinOnGroups}). */
    private final boolean foldGroups;
    /** Whether a join's build side became groups folded on the GPU. */
    private boolean foldedGroups;

    private sealed interface Step {
        record Filter(Expr predicate) implements Step { }

        record Probe(int dimension, Expr key, boolean hashed, ProbeMode mode) implements Step {
            Probe(int dimension, Expr key, boolean hashed, boolean anti) {
                this(dimension, key, hashed, anti ? ProbeMode.ANTI : ProbeMode.MATCH);
            }
        }
    }

    /**
     * {@code catalog}: the tables whose keys dense-coded foreign keys hold (their value ranges);
     * {@code foldGroups}: whether joins to an aggregation's groups may fold them on the GPU.
     */
    private StarPipelineCompiler(Catalog catalog, boolean foldGroups) {
        this.catalog = catalog;
        this.foldGroups = foldGroups;
    }

    public static StarPipeline compile(AggregateNode node, Catalog catalog) throws Unsupported {
        return compiled(c -> c.build(node), catalog);
    }

    /** The rows {@code top} produces, as a selection the GPU runs: {@code top} is a star pipeline with no aggregation. */
    public static StarPipeline compileRows(PlanNode top, Catalog catalog) throws Unsupported {
        return compiled(c -> c.buildRows(top), catalog);
    }

    private interface Compilation {
        StarPipeline of(StarPipelineCompiler compiler) throws Unsupported;
    }

    /**
     * The pipeline {@code how} compiles, folding aggregations' groups on the GPU where its joins
     * allow, or, where what that makes of the pipeline cannot run there, with those joins' build
     * sides built on the CPU as before.
     */
    private static StarPipeline compiled(Compilation how, Catalog catalog) throws Unsupported {
        StarPipelineCompiler folding = new StarPipelineCompiler(catalog, true);
        try {
            return how.of(folding);
        } catch (Unsupported e) {
            if (!folding.foldedGroups) {
                throw e;
            }
            return how.of(new StarPipelineCompiler(catalog, false));
        }
    }

    private StarPipeline buildRows(PlanNode top) throws Unsupported {
        selection = true;
        List<Expr> out = walk(top);
        ProgramBuilder program = program();
        DimensionProjection projection = new DimensionProjection(dimensions);
        List<StarPipeline.Output> outputs = new ArrayList<>();
        for (Expr e : out) {
            outputs.add(output(e, program, projection));
        }
        return assemble(top, program, projection, List.of(), List.of(), List.of(), outputs);
    }

    private StarPipeline.Output output(Expr e, ProgramBuilder program, DimensionProjection projection) throws Unsupported {
        if (e instanceof Literal l) {
            return new StarPipeline.Output.Constant(l.value(), l.type());
        }
        int d = DimensionExprs.dimensionOf(e, sources);
        if (d >= 0 && !DimensionExprs.readsFolds(e, sources)) {
            ColumnRef column = projection.add(d, DimensionExprs.toBuildColumns(e, sources));
            return new StarPipeline.Output.DimensionValue(program.position(d), d, column.index(), e.type());
        }
        if (e.type().kind() != DataType.Kind.VARCHAR) {
            return new StarPipeline.Output.Value(program.register(e), e.type());
        }
        if (e instanceof ColumnRef c && sources.get(c.index()) instanceof ColumnOrigin.Fact f) {
            return new StarPipeline.Output.Codes(program.register(e), f.tableColumn(), e.type());
        }
        throw new Unsupported("a string computed from fact columns in the output");
    }

    /** The program's filters and probes, in pipeline order. */
    private ProgramBuilder program() throws Unsupported {
        ProgramBuilder program = new ProgramBuilder(sources, c -> StrDict.of(fact.table().column(c).dictionary()));
        for (Step step : steps) {
            switch (step) {
                case Step.Filter f -> program.filter(f.predicate());
                case Step.Probe p -> program.probe(p.dimension(), p.key(), p.hashed(), p.mode());
            }
        }
        return program;
    }

    private StarPipeline assemble(PlanNode node, ProgramBuilder program, DimensionProjection projection,
                                  List<StarPipeline.Slot> slots, List<StarPipeline.GroupKey> keys,
                                  List<StarPipeline.CallStates> calls, List<StarPipeline.Output> outputs)
            throws Unsupported {
        List<StarPipeline.DimColumn> dimColumns = new ArrayList<>();
        for (StarPipeline.DimColumn dc : program.dimColumns()) {
            dimColumns.add(new StarPipeline.DimColumn(dc.dimension(), projection.add(dc.dimension(), dc.expr()), dc.fold()));
        }
        List<StarPipeline.Dimension> dims = withGpuBuilds(projection.dimensions(), program.dimColumns(), keys);
        for (StarPipeline.Dimension dim : dims) {
            if (dim.marks() && !dim.builtOnGpu()) {
                throw new Unsupported("a marking join whose build side the GPU cannot run");
            }
        }
        return new StarPipeline(node, fact, List.copyOf(program.factColumns()), List.copyOf(program.keyColumns()),
                List.copyOf(program.answers()),
                dims, List.copyOf(dimColumns), program.code(), program.constants(), List.copyOf(slots),
                List.copyOf(keys), List.copyOf(calls), List.copyOf(outputs));
    }

    /**
     * {@code dims} (projected), each built on the GPU where it can be: its build side compiles to a
     * pipeline over one table whose rows are its codes (or, for a hashed one, the positions its hash
     * table finds), and its group keys, if any,
     * include that table's primary key (their digit is then the row, which the GPU writes without
     * ranking anything) or each lie within a range its column statistics give (the digit is then
     * computed from their values, {@link StarPipeline.ValueDigit}). {@code columns}: the dimension
     * expressions the kernel reads, over the build sides' columns, in the order it loads them.
     */
    private List<StarPipeline.Dimension> withGpuBuilds(List<StarPipeline.Dimension> dims,
                                                       List<StarPipeline.DimColumn> columns,
                                                       List<StarPipeline.GroupKey> keys) {
        List<StarPipeline.Dimension> out = new ArrayList<>();
        for (int d = 0; d < dims.size(); d++) {
            StarPipeline.Dimension dim = dims.get(d);
            StarPipeline.Dimension unprojected = dimensions.get(d);
            List<Integer> own = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
                if (keys.get(k).dimension() == d) {
                    own.add(k);
                }
            }
            boolean byRow = own.isEmpty()
                    || own.stream().anyMatch(k -> GroupLayout.uniqueOverBuild(dim.build(), keys.get(k).expr()));
            List<StarPipeline.KeyRange> ranges = byRow ? List.of() : keyRanges(dim, own, keys);
            StarPipeline gpuBuild = null;
            StarPipeline.ValueDigit valueDigit = null;
            int at = d;
            List<StarPipeline.DimColumn> read = columns.stream().filter(c -> c.dimension() == at).toList();
            if (dim.foldsGroups()) {
                try {
                    gpuBuild = new StarPipelineCompiler(catalog, false).buildGroups(unprojected.folded(), read);
                } catch (Unsupported e) {
                    gpuBuild = null;
                }
            } else if ((byRow || !ranges.isEmpty()) && !dim.outer() && !(dim.hashed() && mayHoldEmptyMarker(unprojected))) {
                Expr digit = ranges.isEmpty() ? null : digit(dim, ranges, keys);
                try {
                    gpuBuild = new StarPipelineCompiler(catalog, false).buildDimension(unprojected.build(), unprojected.keyColumn(),
                            dim.marks(), dim.hashed(), read, digit);
                    if (dim.hashed() && gpuBuild.fact().rowCount() != dim.range()) {
                        throw new Unsupported("a hashed dimension whose rows are not its table's");
                    }
                    if (digit != null) {
                        var computed = (StarPipeline.Output.Value) gpuBuild.outputs().get(read.size());
                        valueDigit = new StarPipeline.ValueDigit(computed.register(), ranges);
                    }
                } catch (Unsupported e) {
                    gpuBuild = null;
                }
            }
            out.add(dim.withGpuBuild(gpuBuild, valueDigit));
        }
        return List.copyOf(out);
    }

    /**
     * Whether hashed dimension {@code dim}'s join key may be {@link Long#MIN_VALUE}, which a hash
     * table built on the GPU cannot hold (it marks empty slots there), as its statistics tell: the
     * host builds such a table.
     */
    private boolean mayHoldEmptyMarker(StarPipeline.Dimension dim) {
        return !dim.packedKey() && ColumnValueStats.of(dim.build(), dim.keyColumn(), catalog)
                .filter(st -> st.rows() > st.nulls() && st.min() == Long.MIN_VALUE).isPresent();
    }

    /**
     * The ranges of group keys {@code own} (indexes into {@code keys}) of projected dimension
     * {@code dim}, each over its unprojected build; empty unless every one has a range, NULL out of
     * it, and their product is at most the dimension's codes (a digit no larger than one per row)
     * or {@link #VALUE_DIGITS}.
     */
    private List<StarPipeline.KeyRange> keyRanges(StarPipeline.Dimension dim, List<Integer> own,
                                                  List<StarPipeline.GroupKey> keys) {
        ProjectNode projected = (ProjectNode) dim.build();
        List<StarPipeline.KeyRange> ranges = new ArrayList<>();
        for (int k : own) {
            var range = KeyValueRange.of(unprojected(dim, keys.get(k)), c -> ColumnValueStats.of(projected.input(), c, catalog));
            if (range.isEmpty()) {
                return List.of();
            }
            ranges.add(new StarPipeline.KeyRange(k, range.get().min(), range.get().range()));
        }
        long[] each = ranges.stream().mapToLong(StarPipeline.KeyRange::range).toArray();
        return MixedRadix.multipliers(each, Math.max(dim.range(), VALUE_DIGITS)).isPresent() ? ranges : List.of();
    }

    /** The digit of {@code ranges}' keys as an expression over {@code dim}'s unprojected build columns. */
    private static Expr digit(StarPipeline.Dimension dim, List<StarPipeline.KeyRange> ranges,
                              List<StarPipeline.GroupKey> keys) {
        long[] min = ranges.stream().mapToLong(StarPipeline.KeyRange::min).toArray();
        long[] multipliers = MixedRadix.multipliers(ranges.stream().mapToLong(StarPipeline.KeyRange::range).toArray(),
                Long.MAX_VALUE).orElseThrow();
        return MixedRadix.number(i -> codes(unprojected(dim, keys.get(ranges.get(i).key()))), min, multipliers);
    }

    /** {@code e}, or for a string column, its codes (the values a string key's range counts). */
    private static Expr codes(Expr e) {
        return e instanceof ColumnRef c && c.type().kind() == DataType.Kind.VARCHAR
                ? new ColumnRef(c.index(), DataType.INTEGER, c.nullable()) : e;
    }

    /** Group key {@code key} of projected dimension {@code dim}, over its unprojected build's columns. */
    private static Expr unprojected(StarPipeline.Dimension dim, StarPipeline.GroupKey key) {
        return ((ProjectNode) dim.build()).expressions().get(((ColumnRef) key.expr()).index());
    }

    /**
     * A dimension's build side as a pipeline the GPU runs by row: one table scanned, filtered and
     * projected; its outputs are {@code columns} (over the build's columns) and, when not null,
     * {@code digit} (the dimension's group digit). A dense dimension is keyed by its table's row ids.
     * A hashed one ({@code hashed}) writes its rows at their row ids too, and, last, its join key,
     * from which its hash table is built. A marking join's build side ({@code marks}) is keyed by a
     * foreign key's codes instead, which many of its rows may share: it tells where a row is, and
     * the values {@code columns} fold into extremes there, so its outputs are their values and,
     * last, that code.
     */
    private StarPipeline buildDimension(PlanNode build, int keyColumn, boolean marks, boolean hashed,
                                        List<StarPipeline.DimColumn> columns, Expr digit) throws Unsupported {
        List<Expr> in = walk(build);
        if (!dimensions.isEmpty()) {
            throw new Unsupported("a join inside a dimension's build side");
        }
        Expr key = in.get(keyColumn);
        boolean byRowId = key instanceof ColumnRef k && sources.get(k.index()) instanceof ColumnOrigin.RowId;
        boolean extremes = columns.stream().anyMatch(c -> c.fold() != null);
        if (marks ? byRowId || digit != null || !columns.stream().allMatch(c -> c.fold() != null)
                : extremes || !hashed && !byRowId) {
            throw new Unsupported(marks ? "a marking join whose build side is not keyed by codes alone"
                    : "a dimension whose codes are not its table's rows");
        }
        if (marks && key instanceof ColumnRef k && sources.get(k.index()) instanceof ColumnOrigin.FactKey f) {
            key = codes(f);
        }
        ProgramBuilder program = program();
        List<StarPipeline.Output> outputs = new ArrayList<>();
        List<Expr> computed = new ArrayList<>();
        for (StarPipeline.DimColumn column : columns) {
            computed.add(Expr.substitute(column.expr(), in));
        }
        if (digit != null) {
            // a string key's digit counts its codes, which its column holds
            computed.add(Expr.substitute(digit, in.stream().map(StarPipelineCompiler::codes).toList()));
        }
        if (marks || hashed) {
            computed.add(key);
        }
        for (Expr e : computed) {
            if (e.type().kind() == DataType.Kind.VARCHAR) {
                throw new Unsupported("a string column of a dimension");
            }
            outputs.add(new StarPipeline.Output.Value(program.register(e), e.type()));
        }
        return assemble(build, program, new DimensionProjection(List.of()), List.of(), List.of(), List.of(), outputs);
    }

    /**
     * The build side of a dimension of groups folded at their codes ({@link #joinOnGroups}):
     * aggregation {@code a}'s input as a pipeline over one table, whose outputs are, for each
     * column the kernel reads ({@code columns}, references to {@code a}'s output), the value its
     * fold takes from a row (the group key, for its least; a call's argument; 1 for COUNT(*)), and,
     * last, the code of the group key.
     */
    private StarPipeline buildGroups(AggregateNode a, List<StarPipeline.DimColumn> columns) throws Unsupported {
        List<Expr> in = walk(a.input());
        Expr key = in.get(a.groupKeys()[0]);
        if (!dimensions.isEmpty() || !(key instanceof ColumnRef k && sources.get(k.index()) instanceof ColumnOrigin.FactKey f)) {
            throw new Unsupported("an aggregation by other than a foreign key of one table, folded at its codes");
        }
        ProgramBuilder program = program();
        List<Expr> computed = new ArrayList<>();
        for (StarPipeline.DimColumn column : columns) {
            int c = ((ColumnRef) column.expr()).index();
            AggCall call = c == 0 ? null : a.calls().get(c - 1);
            computed.add(call == null ? key
                    : call.argument() < 0 ? new Literal(1L, DataType.BIGINT) : in.get(call.argument()));
        }
        computed.add(codes(f));
        List<StarPipeline.Output> outputs = new ArrayList<>();
        for (Expr e : computed) {
            outputs.add(new StarPipeline.Output.Value(program.register(e), e.type()));
        }
        return assemble(a, program, new DimensionProjection(List.of()), List.of(), List.of(), List.of(), outputs);
    }

    private StarPipeline build(AggregateNode node) throws Unsupported {
        List<Expr> in = walk(node.input());
        ProgramBuilder program = program();
        List<StarPipeline.GroupKey> keys = new ArrayList<>();
        for (int k : node.groupKeys()) {
            keys.add(groupKey(in.get(k), program));
        }
        List<StarPipeline.Slot> slots = new ArrayList<>();
        Map<StarPipeline.Slot, Integer> slotIndex = new HashMap<>();
        slot(new StarPipeline.Slot(AggKind.COUNT, -1, -1), slots, slotIndex);
        List<StarPipeline.CallStates> calls = new ArrayList<>();
        List<Field> fields = node.input().output();
        for (AggCall call : node.calls()) {
            calls.add(callStates(call, call.argument() < 0 ? null : fields.get(call.argument()).type(), in, program,
                    slots, slotIndex, distinctValues(node, call)));
        }
        DimensionProjection projection = new DimensionProjection(dimensions);
        List<StarPipeline.GroupKey> projectedKeys = new ArrayList<>();
        for (StarPipeline.GroupKey key : keys) {
            projectedKeys.add(key.dimension() < 0 ? key
                    : new StarPipeline.GroupKey(key.dimension(), projection.add(key.dimension(), key.expr()), -1, -1, false,
                            null, -1));
        }
        return assemble(node, program, projection, slots, projectedKeys, calls, List.of());
    }

    private List<Expr> walk(PlanNode node) throws Unsupported {
        return switch (node) {
            case ScanNode s -> scan(s);
            case FilterNode f -> {
                List<Expr> in = walk(f.input());
                steps.add(new Step.Filter(Expr.substitute(f.condition(), in)));
                yield in;
            }
            case ProjectNode p -> {
                List<Expr> in = walk(p.input());
                List<Expr> out = new ArrayList<>();
                for (Expr e : p.expressions()) {
                    out.add(Expr.substitute(e, in));
                }
                yield out;
            }
            case HashJoinNode j -> join(j);
            // an aggregate or a sort ends the pipeline below: this one starts from its output
            case AggregateNode a -> throw new Unsupported("a pipeline that reads another pipeline's groups: "
                    + "GPU pipelines start at a table scan");
            case SortNode o -> throw new Unsupported("a pipeline that reads another pipeline's sorted rows: "
                    + "GPU pipelines start at a table scan");
            default -> throw new Unsupported(node.describe().split(" ")[0] + " inside the pipeline");
        };
    }

    private List<Expr> scan(ScanNode s) throws Unsupported {
        if (fact != null) {
            throw new Unsupported("a second scan in the pipeline");
        }
        fact = s;
        List<Expr> out = new ArrayList<>();
        for (ScanNode.ScanColumn c : s.columns()) {
            if (c.mode() == ScanNode.ScanColumn.Mode.ROW_ID) {
                out.add(ref(new ColumnOrigin.RowId(s.output().get(out.size()).type())));
                continue;
            }
            Column column = s.table().column(c.column());
            Field f = s.output().get(out.size());
            if (c.mode() == ScanNode.ScanColumn.Mode.VALUE && column.isDenseCoded()) {
                if (f.type().kind() == DataType.Kind.VARCHAR) {
                    throw new Unsupported("the string key values of foreign key " + column.name());
                }
                out.add(ref(new ColumnOrigin.FactKey(c.column(), f.type(), f.nullable())));
            } else {
                out.add(ref(new ColumnOrigin.Fact(c.column(), f.type(), f.nullable())));
            }
        }
        if (s.filter() != null) {
            steps.add(new Step.Filter(Expr.substitute(s.filter(), out)));
        }
        return out;
    }

    private List<Expr> join(HashJoinNode j) throws Unsupported {
        if (j.markProbe()) {
            return marking(j);
        }
        boolean anti = j.kind() == JoinKind.ANTI;
        if (j.probeKeys().length == 0 && !anti) {
            return scalarJoin(j);
        }
        if (j.kind() == JoinKind.LEFT) {
            return leftJoin(j);
        }
        Optional<HashJoinNode> onOneKey = onUniqueKey(j);
        if (onOneKey.isPresent()) {
            return join(onOneKey.get());
        }
        if (j.kind() == JoinKind.INNER && !j.dense() && !streams(j.probe()) && streams(j.build())) {
            return swapped(j);
        }
        List<Expr> out = new ArrayList<>(walk(j.probe()));
        if (j.kind() == JoinKind.INNER) {
            Optional<List<Expr>> onGroups = joinOnGroups(j, out);
            if (onGroups.isPresent()) {
                return onGroups.get();
            }
        }
        if ((anti || j.kind() == JoinKind.SEMI) && !j.dense() && !selection) {
            Optional<List<Expr>> byCodes = joinByCodes(j, out);
            if (byCodes.isPresent()) {
                return byCodes.get();
            }
        }
        return probed(j, out);
    }

    /**
     * A SEMI or ANTI join that marks its probe rows (the CPU builds a table of the smaller probe
     * side and streams the build side through it): by codes where both sides hold them
     * ({@link #joinByCodes}), else, with no condition beyond its keys, as the join it means, the
     * pipeline streaming the probe side and asking a dimension of the build side's keys whether a
     * row's key is there (TPC-H Q20's Canadian suppliers among the {@code ps_suppkey} values of a
     * join): a hash table of a few thousand keys is nothing to the GPU.
     */
    private List<Expr> marking(HashJoinNode j) throws Unsupported {
        List<Expr> out = new ArrayList<>(walk(j.probe()));
        Optional<List<Expr>> byCodes = joinByCodes(j, out);
        if (byCodes.isPresent()) {
            return byCodes.get();
        }
        if (j.dense()) {
            throw new Unsupported(describe(j) + " by its rows' index from a build side other than one table's scan");
        }
        if (j.residual() != null) {
            throw new Unsupported(describe(j) + " with a condition beyond its keys, on other keys than codes of one"
                    + " table or a condition other than a comparison of a column of each side");
        }
        return probed(j, out);
    }

    /**
     * Join {@code j} (INNER, SEMI or ANTI) probing its build side, built as a dense or hashed
     * dimension, with each row of its probe side's columns {@code out}. A SEMI or ANTI join with no
     * condition beyond its keys only asks whether a key is there, so its build side's keys may repeat.
     */
    private List<Expr> probed(HashJoinNode j, List<Expr> out) throws Unsupported {
        boolean anti = j.kind() == JoinKind.ANTI;
        boolean packed = j.probeKeys().length > 1;
        boolean presence = j.kind() != JoinKind.INNER && j.residual() == null;
        if (anti && (packed || j.residual() != null)) {
            throw new Unsupported("an ANTI join " + (packed ? "on several keys" : "with a condition beyond its keys"));
        }
        if (!j.dense() && !packed) {
            hashable(j);
        }
        int d = dimensions.size();
        List<Field> buildFields = j.build().output();
        if (packed) {
            PackedJoinKey key = PackedJoinKey.of(j, out, catalog);
            dimensions.add(new StarPipeline.Dimension(key.keyedBuild(), buildFields.size(), true, true,
                    mostRows(j.build()), false, false, presence, null, null, null));
            steps.add(new Step.Filter(key.guard()));
            steps.add(new Step.Probe(d, key.probe(), true, false));
        } else {
            dimensions.add(new StarPipeline.Dimension(j.build(), j.buildKeys()[0], !j.dense(), false,
                    j.dense() ? j.denseRange() : mostRows(j.build()), false, false, presence, null, null, null));
            steps.add(new Step.Probe(d, out.get(j.probeKeys()[0]), !j.dense(), anti));
        }
        return output(j, out, d);
    }

    /**
     * LEFT join {@code j} on a foreign key's code, or on one key that is unique over its build side
     * (an aggregation's one group key, a primary key: TPC-H Q13's orders counted per customer,
     * joined to every customer), with no condition beyond it: the groups folded on the GPU where
     * they can be ({@link #joinOnGroups}), else the build side becomes a dense or hashed dimension
     * built on the CPU; after its rows comes one of NULLs, which a row that finds no match reads
     * ({@link ProbeMode#OUTER}), so every row goes on and each expression over the build columns
     * takes their NULL values.
     */
    private List<Expr> leftJoin(HashJoinNode j) throws Unsupported {
        if (j.probeKeys().length != 1 || j.residual() != null) {
            throw new Unsupported("a LEFT join on several keys or with a condition beyond its key");
        }
        List<Expr> out = new ArrayList<>(walk(j.probe()));
        Optional<List<Expr>> onGroups = joinOnGroups(j, out);
        if (onGroups.isPresent()) {
            return onGroups.get();
        }
        if (!j.dense()) {
            if (!unique(j.build(), j.buildKeys()[0])) {
                throw new Unsupported("a LEFT join to rows whose key may repeat");
            }
            hashable(j);
        }
        int d = dimensions.size();
        dimensions.add(new StarPipeline.Dimension(j.build(), j.buildKeys()[0], !j.dense(), false,
                j.dense() ? j.denseRange() : mostRows(j.build()) + 1, false, true, false, null, null, null));
        steps.add(new Step.Probe(d, out.get(j.probeKeys()[0]), !j.dense(), ProbeMode.OUTER));
        return output(j, out, d);
    }

    /**
     * An INNER or LEFT join on one key whose build side is an aggregation of one table's rows by
     * one foreign key, that key (TPC-H Q13's orders counted per customer, joined to every
     * customer), where the probe key holds a code of the table the foreign key references: the
     * GPU folds the groups at their codes, a dimension the pipeline probes with its rows' codes,
     * so neither the groups nor a table of them cross the link. Each aggregate is a fold that
     * atomics do: COUNT, and the SUM, MIN and MAX of a column that is never NULL (integers,
     * decimals, dates; a SUM only where the column's largest magnitude times the table's rows
     * stays within 64 bits); the group key is the least key at its code. An INNER join drops the
     * rows whose code has no group, and those whose group fails a HAVING over the aggregation
     * (TPC-H Q18's orders of more than 300 units), which the pipeline tests after the probe (so
     * only for the groups some row probes: an error the HAVING would raise for another goes
     * unseen); the rows of a LEFT join (which takes no HAVING) that find no group read a row of
     * NULLs. The build side may project the aggregation's columns. Empty, changing nothing, where
     * the join or the aggregation has another form. {@code out}: the probe side's columns, walked.
     */
    private Optional<List<Expr>> joinOnGroups(HashJoinNode j, List<Expr> out) {
        if (!foldGroups || j.dense() || j.probeKeys().length != 1 || j.residual() != null) {
            return Optional.empty();
        }
        Optional<GroupsBuild> groups = GroupsBuild.of(j.build());
        if (groups.isEmpty() || groups.get().columns()[j.buildKeys()[0]] != 0
                || j.kind() == JoinKind.LEFT && !groups.get().conditions().isEmpty()) {
            return Optional.empty();
        }
        AggregateNode a = groups.get().aggregate();
        if (a.groupKeys().length != 1 || !PlanNode.scansOneTable(a.input())) {
            return Optional.empty();
        }
        int keyWidth = a.output().get(0).type().physical().width;
        if (keyWidth != 4 && keyWidth != 8) {
            return Optional.empty();
        }
        List<AggKind> folds = new ArrayList<>();
        folds.add(AggKind.MIN_I);
        for (AggCall call : a.calls()) {
            foldOf(call, a.input()).ifPresent(folds::add);
        }
        if (folds.size() != a.output().size()) {
            return Optional.empty();
        }
        // last: a probe by the fact's own rows adds their row index to the pipeline's columns
        Optional<Column.DenseReference> target = buildKeyReference(j);
        Optional<Expr> code = target.flatMap(t -> codeOf(t, out.get(j.probeKeys()[0])));
        if (code.isEmpty()) {
            return Optional.empty();
        }
        boolean outer = j.kind() == JoinKind.LEFT;
        int d = dimensions.size();
        dimensions.add(new StarPipeline.Dimension(j.build(), 0, false, false,
                catalog.require(target.get().table()).rowCount(), true, outer, false, null, null, a));
        steps.add(new Step.Probe(d, code.get(), false, outer ? ProbeMode.OUTER : ProbeMode.MATCH));
        foldedGroups = true;
        List<Expr> folded = new ArrayList<>();
        for (int c = 0; c < a.output().size(); c++) {
            Field f = a.output().get(c);
            folded.add(ref(new ColumnOrigin.Dim(d, c, f.type(), outer || f.nullable(), folds.get(c))));
        }
        for (Expr condition : groups.get().conditions()) {
            steps.add(new Step.Filter(Expr.substitute(condition, folded)));
        }
        List<Expr> combined = new ArrayList<>(out);
        for (int c : groups.get().columns()) {
            combined.add(folded.get(c));
        }
        return Optional.of(combined);
    }

    /**
     * A join build side that is an aggregation's groups: {@code aggregate}, the HAVING
     * {@code conditions} of filters over it (over its output), and which of its output columns
     * the build side's are, through a projection of plain references above them.
     */
    private record GroupsBuild(AggregateNode aggregate, int[] columns, List<Expr> conditions) {
        static Optional<GroupsBuild> of(PlanNode build) {
            PlanNode under = build;
            int[] columns = null;
            if (under instanceof ProjectNode p) {
                if (!p.expressions().stream().allMatch(e -> e instanceof ColumnRef)) {
                    return Optional.empty();
                }
                columns = p.expressions().stream().mapToInt(e -> ((ColumnRef) e).index()).toArray();
                under = p.input();
            }
            List<Expr> conditions = new ArrayList<>();
            while (under instanceof FilterNode f) {
                conditions.add(f.condition());
                under = f.input();
            }
            if (!(under instanceof AggregateNode a)) {
                return Optional.empty();
            }
            return Optional.of(new GroupsBuild(a, columns != null ? columns : IntStream.range(0, a.output().size()).toArray(),
                    List.copyOf(conditions)));
        }
    }

    /**
     * The fold that gives aggregate {@code call}'s value over rows of {@code input} at a code,
     * where atomics can: empty for a DISTINCT or filtered call, an average, a NULL-able or string
     * argument, a SUM that may pass 64 bits.
     */
    private Optional<AggKind> foldOf(AggCall call, PlanNode input) {
        if (call.distinct() || call.filter() >= 0) {
            return Optional.empty();
        }
        if (call.function() == AggregateNode.Function.COUNT_STAR || call.function() == AggregateNode.Function.COUNT) {
            // the fold adds to a 64-bit word
            return call.type().physical().width == 8 ? Optional.of(AggKind.COUNT) : Optional.empty();
        }
        Field arg = input.output().get(call.argument());
        DataType t = arg.type();
        int width = t.physical().width;
        boolean folds = !arg.nullable() && (width == 4 || width == 8)
                && (t.isIntegral() || t.kind() == DataType.Kind.DATE || t.kind() == DataType.Kind.DECIMAL);
        return switch (call.function()) {
            case MIN -> folds ? Optional.of(AggKind.MIN_I) : Optional.empty();
            case MAX -> folds ? Optional.of(AggKind.MAX_I) : Optional.empty();
            case SUM -> folds && call.type().physical().width == 8 && call.type().kind() != DataType.Kind.DOUBLE
                    && call.type().scale() == t.scale() && sumFits(input, call.argument())
                    ? Optional.of(AggKind.SUM_I) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** Whether the sum of column {@code column} over all of {@code input}'s table's rows stays within 64 bits, by its statistics. */
    private boolean sumFits(PlanNode input, int column) {
        long rows = mostRows(input);
        return ColumnValueStats.of(input, column, catalog).filter(st -> st.rows() > st.nulls()).map(st -> {
            long most = Math.max(Math.abs(Math.max(st.min(), -Long.MAX_VALUE)), Math.abs(st.max()));
            return rows == 0 || most <= Long.MAX_VALUE / rows;
        }).orElse(false);
    }

    /**
     * INNER join {@code j} with its sides' work swapped: the pipeline streams its build side and
     * probes the rows of its probe side, which is no pipeline the GPU streams (an aggregation's
     * groups: TPC-H Q17's average quantity per part, Q20's shipped quantity per part and supplier),
     * as a hashed dimension, whose keys must then be unique. The output keeps the join's column order.
     */
    private List<Expr> swapped(HashJoinNode j) throws Unsupported {
        List<Field> probeFields = j.probe().output();
        List<Field> buildFields = j.build().output();
        int p = probeFields.size();
        int b = buildFields.size();
        Expr residual = null;
        if (j.residual() != null) {
            List<Expr> mirrored = new ArrayList<>();
            for (int c = 0; c < p + b; c++) {
                Field f = c < p ? probeFields.get(c) : buildFields.get(c - p);
                mirrored.add(new ColumnRef(c < p ? b + c : c - p, f.type(), f.nullable()));
            }
            residual = Expr.substitute(j.residual(), mirrored);
        }
        List<Expr> out = join(new HashJoinNode(j.build(), j.probe(), JoinKind.INNER, j.buildKeys(), j.probeKeys(),
                residual, false, 0));
        List<Expr> inOrder = new ArrayList<>(out.subList(b, b + p));
        inOrder.addAll(out.subList(0, b));
        return inOrder;
    }

    /**
     * Join {@code j} on several keys, one of whose build keys is unique over its build side (a
     * primary key, an aggregation's one group key: TPC-H Q2's least cost per part), on that key
     * alone, the other pairs of keys (each of one type) equalities of its condition: a build row
     * matches on all of them or on none but that key, so the one key finds the only row that can.
     */
    private static Optional<HashJoinNode> onUniqueKey(HashJoinNode j) {
        int n = j.probeKeys().length;
        if (n < 2 || j.dense() || j.markProbe()) {
            return Optional.empty();
        }
        List<Field> probe = j.probe().output();
        List<Field> build = j.build().output();
        for (int k = 0; k < n; k++) {
            if (!unique(j.build(), j.buildKeys()[k])) {
                continue;
            }
            List<Expr> conditions = new ArrayList<>();
            for (int other = 0; other < n; other++) {
                Field p = probe.get(j.probeKeys()[other]);
                Field b = build.get(j.buildKeys()[other]);
                if (other != k && p.type().equals(b.type())) {
                    conditions.add(new Call(Call.Op.EQ, List.of(new ColumnRef(j.probeKeys()[other], p.type(), p.nullable()),
                            new ColumnRef(probe.size() + j.buildKeys()[other], b.type(), b.nullable())), DataType.BOOLEAN,
                            p.nullable() || b.nullable()));
                }
            }
            if (conditions.size() != n - 1) {
                return Optional.empty();
            }
            if (j.residual() != null) {
                conditions.add(j.residual());
            }
            Expr residual = new Call(Call.Op.AND, conditions, DataType.BOOLEAN, conditions.stream().anyMatch(Expr::nullable));
            return Optional.of(new HashJoinNode(j.probe(), j.build(), j.kind(), new int[] {j.probeKeys()[k]},
                    new int[] {j.buildKeys()[k]}, residual, false, 0));
        }
        return Optional.empty();
    }

    /**
     * Whether column {@code column} of {@code node}'s rows differs on each: an aggregation's one
     * group key, or its table's primary key ({@link GroupLayout#uniqueOverBuild}), through filters,
     * projections and SEMI or ANTI joins (which pass some of their rows on, once each).
     */
    private static boolean unique(PlanNode node, int column) {
        return switch (node) {
            case ProjectNode p when p.expressions().get(column) instanceof ColumnRef r -> unique(p.input(), r.index());
            case FilterNode f -> unique(f.input(), column);
            case HashJoinNode j when j.kind() == JoinKind.SEMI || j.kind() == JoinKind.ANTI -> unique(j.probe(), column);
            case AggregateNode a -> a.groupKeys().length == 1 && column == 0;
            default -> {
                Field f = node.output().get(column);
                yield GroupLayout.uniqueOverBuild(node, new ColumnRef(column, f.type(), f.nullable()));
            }
        };
    }

    /** Whether the pipeline can stream {@code node}'s rows from a scan (else it can only probe them). */
    private static boolean streams(PlanNode node) {
        return switch (node) {
            case ScanNode s -> true;
            case FilterNode f -> streams(f.input());
            case ProjectNode p -> streams(p.input());
            case HashJoinNode j -> streams(j.probe()) || j.kind() == JoinKind.INNER && !j.dense() && streams(j.build());
            default -> false;
        };
    }

    /**
     * The output of join {@code j} over its probe side's columns {@code out}, its build side read
     * as dimension {@code d}: with the build columns for an INNER or LEFT join; its residual
     * condition filters the rows.
     */
    private List<Expr> output(HashJoinNode j, List<Expr> out, int d) throws Unsupported {
        List<Field> buildFields = j.build().output();
        List<Expr> combined = new ArrayList<>(out);
        boolean outer = j.kind() == JoinKind.LEFT;
        for (int c = 0; c < buildFields.size(); c++) {
            combined.add(ref(new ColumnOrigin.Dim(d, c, buildFields.get(c).type(), outer || buildFields.get(c).nullable())));
        }
        if (j.residual() != null) {
            steps.add(new Step.Filter(Expr.substitute(j.residual(), combined)));
        }
        return j.kind() == JoinKind.INNER || j.kind() == JoinKind.LEFT ? combined : out;
    }

    /**
     * An INNER or SEMI join on no keys whose build side has at most one row, the value of a scalar
     * subquery (TPC-H Q22's average balance, Q11's share of the total), or a LEFT one whose build
     * side has exactly one: a dense dimension of one code, 0, which every row probes, so its
     * columns read like constants and a build without a row leaves no row.
     */
    private List<Expr> scalarJoin(HashJoinNode j) throws Unsupported {
        if (j.kind() == JoinKind.LEFT ? !oneRow(j.build(), true) : !oneRow(j.build(), false)) {
            throw new Unsupported(j.kind() == JoinKind.LEFT ? "a LEFT join on no keys to other than one row"
                    : "a join on no keys to more than one row");
        }
        List<Expr> out = new ArrayList<>(walk(j.probe()));
        List<Field> buildFields = j.build().output();
        List<Expr> columns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int c = 0; c < buildFields.size(); c++) {
            columns.add(new ColumnRef(c, buildFields.get(c).type(), buildFields.get(c).nullable()));
            names.add(buildFields.get(c).name());
        }
        Literal code = new Literal(0L, DataType.BIGINT);
        columns.add(code);
        names.add("$code");
        int d = dimensions.size();
        dimensions.add(new StarPipeline.Dimension(new ProjectNode(j.build(), columns, names), buildFields.size(), false, 1));
        steps.add(new Step.Probe(d, code, false, false));
        return output(j, out, d);
    }

    /**
     * Whether {@code node} yields at most one row ({@code exactly}: one row): an aggregation without
     * group keys, projected (or filtered, which may leave none).
     */
    private static boolean oneRow(PlanNode node, boolean exactly) {
        return switch (node) {
            case AggregateNode a -> a.groupKeys().length == 0;
            case ProjectNode p -> oneRow(p.input(), exactly);
            case FilterNode f -> !exactly && oneRow(f.input(), false);
            default -> false;
        };
    }

    /**
     * A SEMI or ANTI join whose two sides hold the same code of one table: the pipeline's own, whose
     * rows the plan's dense marking join names by index (TPC-H Q4's orders with a late lineitem,
     * Q22's customers without an order), or one both sides' foreign keys reference (Q21's lineitem
     * rows by their orders), whichever side the CPU would hash. The build side becomes a dimension
     * over that table's codes, which the GPU builds and the pipeline probes with its rows' codes:
     * present where some build row points, or, for a condition comparing a build column with a
     * value of the row, the extremes of that column at each code, which tell whether some build row
     * there satisfies it ({@link ExtremeTest}). {@code out}: the probe side's columns, walked.
     * Empty, changing nothing, where the keys are not such codes, the build side is not one
     * table's scan, or the condition not such a comparison.
     */
    private Optional<List<Expr>> joinByCodes(HashJoinNode j, List<Expr> out) throws Unsupported {
        if (j.probeKeys().length != 1 || !PlanNode.scansOneTable(j.build())) {
            return Optional.empty();
        }
        Optional<Expr> code = markedCode(j, out.get(j.probeKeys()[0]));
        Optional<ExtremeTest> test = j.residual() == null ? Optional.empty() : ExtremeTest.of(j, out);
        boolean anti = j.kind() == JoinKind.ANTI;
        if (code.isEmpty() || j.residual() != null && test.isEmpty()) {
            return Optional.empty();
        }
        if (anti && j.residual() != null && code.get().nullable()) {
            // the probe drops a NULL key, which an ANTI join keeps
            throw new Unsupported(describe(j) + " on a nullable key with a condition beyond it");
        }
        int d = dimensions.size();
        long codes = j.dense() ? j.denseRange() : catalog.require(buildKeyReference(j).orElseThrow().table()).rowCount();
        dimensions.add(new StarPipeline.Dimension(j.build(), j.buildKeys()[0], false, false, codes, true, false, false,
                null, null, null));
        if (test.isEmpty()) {
            steps.add(new Step.Probe(d, code.get(), false, anti));
            return Optional.of(out);
        }
        Expr exists = test.get().exists(ref(new ColumnOrigin.Dim(d, test.get().column(), test.get().type(), false,
                AggKind.MIN_I)), ref(new ColumnOrigin.Dim(d, test.get().column(), test.get().type(), false, AggKind.MAX_I)));
        steps.add(new Step.Probe(d, code.get(), false, false));
        steps.add(new Step.Filter(anti ? new Call(Call.Op.IS_NOT_TRUE, List.of(exists), DataType.BOOLEAN, false) : exists));
        return Optional.of(out);
    }

    /** "a SEMI join", "an ANTI join marking its probe side", for EXPLAIN's reasons. */
    private static String describe(HashJoinNode j) {
        return (j.kind() == JoinKind.ANTI ? "an " : "a ") + j.kind() + " join" + (j.markProbe() ? " marking its probe side" : "");
    }

    /**
     * The code join {@code j}'s probe key {@code key} (over the pipeline's columns) holds: the
     * pipeline's row index, for the plan's dense marking join; else a code of the table the build
     * key's foreign key references: the code of a foreign key to it, or, for its key read from a
     * dimension of its rows (the plan may join through the table), the code that dimension was
     * probed with.
     */
    private Optional<Expr> markedCode(HashJoinNode j, Expr key) {
        if (key instanceof ColumnRef r && sources.get(r.index()) instanceof ColumnOrigin.RowId && j.dense()) {
            return Optional.of(key);
        }
        return j.dense() ? Optional.empty() : buildKeyReference(j).flatMap(target -> codeOf(target, key));
    }

    /**
     * The code of the table {@code target} references that key {@code key} (over the pipeline's
     * columns) holds: the code of a foreign key to it; the row index, for the table's referenced
     * key scanned as the fact; or, for its key read from a dimension of its rows (the plan may join
     * through the table), the code that dimension was probed with.
     */
    private Optional<Expr> codeOf(Column.DenseReference target, Expr key) {
        if (key instanceof ColumnRef r) {
            switch (sources.get(r.index())) {
                case ColumnOrigin.FactKey k when target.equals(fact.table().column(k.tableColumn()).denseReference()) -> {
                    return Optional.of(codes(k));
                }
                case ColumnOrigin.Fact f when fact.table().name().equals(target.table())
                        && fact.table().column(f.tableColumn()).name().equals(target.keyColumn()) -> {
                    return Optional.of(ref(new ColumnOrigin.RowId(DataType.INTEGER)));
                }
                case ColumnOrigin.Dim d when d.fold() == null && keysRowsOf(d, target) -> {
                    return steps.stream().filter(s -> s instanceof Step.Probe p && p.dimension() == d.dimension())
                            .map(s -> ((Step.Probe) s).key()).findFirst();
                }
                default -> { }
            }
        }
        return Optional.empty();
    }

    /**
     * Whether column {@code d} of a dense dimension is key {@code ref} of the table whose rows the
     * dimension holds by row id, so the code the dimension was probed with is the key's.
     */
    private boolean keysRowsOf(ColumnOrigin.Dim d, Column.DenseReference ref) {
        StarPipeline.Dimension dim = dimensions.get(d.dimension());
        // an outer dimension's column is NULL where the probe found no row, whatever the code
        if (dim.hashed() || dim.marks() || dim.outer()) {
            return false;
        }
        var rows = ScanColumnOrigin.of(dim.build(), dim.keyColumn());
        var column = ScanColumnOrigin.of(dim.build(), d.buildColumn());
        if (rows.isEmpty() || column.isEmpty() || rows.get().scan() != column.get().scan()) {
            return false;
        }
        ScanNode scan = rows.get().scan();
        return scan.columns().get(rows.get().column()).mode() == ScanNode.ScanColumn.Mode.ROW_ID
                && scan.table().name().equals(ref.table())
                && column.get().valueColumn().filter(c -> c == scan.table().column(ref.keyColumn())).isPresent();
    }

    /** The table and key that join {@code j}'s one build key references, when it is a dense-coded foreign key's values. */
    private static Optional<Column.DenseReference> buildKeyReference(HashJoinNode j) {
        return j.buildKeys().length != 1 ? Optional.empty()
                : ScanColumnOrigin.of(j.build(), j.buildKeys()[0]).flatMap(ScanColumnOrigin::valueColumn)
                        .filter(Column::isDenseCoded).map(Column::denseReference);
    }

    /**
     * A condition beyond a SEMI or ANTI join's key that compares build column {@code column} (of
     * {@code type}) with the row's value {@code y} by {@code op} (the build column first), answered
     * per code by the least and greatest of the column over the build rows there. Rows with a NULL
     * column take no part, as in the join; where none is, the extremes are the folds' identities,
     * the least above the greatest.
     */
    private record ExtremeTest(Call.Op op, int column, DataType type, Expr y) {
        private static final List<Call.Op> OPS = List.of(Call.Op.NE, Call.Op.LT, Call.Op.LE, Call.Op.GT, Call.Op.GE);

        /** The test of join {@code j}'s condition over the pipeline's columns {@code out}, if it has that form. */
        static Optional<ExtremeTest> of(HashJoinNode j, List<Expr> out) {
            int probeWidth = j.probe().output().size();
            if (!(j.residual() instanceof Call c && c.args().size() == 2 && c.args().get(0) instanceof ColumnRef a
                    && c.args().get(1) instanceof ColumnRef b && (a.index() < probeWidth) != (b.index() < probeWidth))) {
                return Optional.empty();
            }
            boolean buildFirst = a.index() >= probeWidth;
            Call.Op op = buildFirst ? c.op() : switch (c.op()) {
                case LT -> Call.Op.GT;
                case LE -> Call.Op.GE;
                case GT -> Call.Op.LT;
                case GE -> Call.Op.LE;
                default -> c.op();
            };
            int column = (buildFirst ? a : b).index() - probeWidth;
            Expr y = out.get((buildFirst ? b : a).index());
            DataType type = j.build().output().get(column).type();
            boolean comparable = type.kind() == y.type().kind()
                    && (type.kind() != DataType.Kind.DECIMAL || type.scale() == y.type().scale());
            boolean folds = type.isIntegral() || type.kind() == DataType.Kind.DATE || type.kind() == DataType.Kind.DECIMAL;
            int width = type.physical().width;
            return comparable && folds && (width == 4 || width == 8) && OPS.contains(op)
                    ? Optional.of(new ExtremeTest(op, column, type, y)) : Optional.empty();
        }

        /**
         * Whether some build row satisfies it, from the extremes at the row's code: x <> y where
         * the least is below y or the greatest above it, x < y where the least is below, and so on;
         * x <= y and x >= y also need a row (the least not above the greatest), since an identity
         * may equal y.
         */
        Expr exists(Expr least, Expr greatest) {
            Expr someRow = compare(Call.Op.LE, least, greatest);
            return switch (op) {
                case NE -> or(compare(Call.Op.LT, least, y), compare(Call.Op.GT, greatest, y));
                case LT -> compare(op, least, y);
                case GT -> compare(op, greatest, y);
                case LE -> and(someRow, compare(op, least, y));
                default -> and(someRow, compare(op, greatest, y));
            };
        }

        private static Expr compare(Call.Op op, Expr left, Expr right) {
            return new Call(op, List.of(left, right), DataType.BOOLEAN, left.nullable() || right.nullable());
        }

        private static Expr or(Expr a, Expr b) {
            return new Call(Call.Op.OR, List.of(a, b), DataType.BOOLEAN, a.nullable() || b.nullable());
        }

        private static Expr and(Expr a, Expr b) {
            return new Call(Call.Op.AND, List.of(a, b), DataType.BOOLEAN, a.nullable() || b.nullable());
        }
    }

    /** A hash join the GPU can probe on one key: of the same integer, date or decimal representation on both sides. */
    private static void hashable(HashJoinNode j) throws Unsupported {
        if (j.probeKeys().length != 1) {
            throw new Unsupported("a hash join on " + j.probeKeys().length + " keys");
        }
        DataType probe = j.probe().output().get(j.probeKeys()[0]).type();
        DataType build = j.build().output().get(j.buildKeys()[0]).type();
        boolean same = probe.kind() == build.kind()
                ? probe.kind() != DataType.Kind.DECIMAL || probe.scale() == build.scale()
                : probe.isIntegral() && build.isIntegral();
        if (!same || !(probe.isIntegral() || probe.kind() == DataType.Kind.DATE || probe.kind() == DataType.Kind.DECIMAL)) {
            throw new Unsupported("a hash join on " + probe + " = " + build);
        }
    }

    /**
     * The most rows a build can produce: those of the largest table it scans (its joins are key
     * joins), or an aggregation's groups, which its keys' distinct values (and a NULL) bound.
     */
    private long mostRows(PlanNode build) {
        if (build instanceof AggregateNode a) {
            long groups = 1;
            for (int k = 0; k < a.groupKeys().length && groups < Long.MAX_VALUE; k++) {
                long distinct = ColumnValueStats.of(a, k, catalog).map(st -> st.distinct() + 1).orElse(Long.MAX_VALUE);
                groups = groups > Long.MAX_VALUE / distinct ? Long.MAX_VALUE : groups * distinct;
            }
            return Math.min(groups, mostRows(a.input()));
        }
        long rows = build instanceof ScanNode s ? s.table().rowCount() : 0;
        for (PlanNode input : build.inputs()) {
            rows = Math.max(rows, mostRows(input));
        }
        return rows;
    }

    private StarPipeline.GroupKey groupKey(Expr e, ProgramBuilder program) throws Unsupported {
        int d = DimensionExprs.dimensionOf(e, sources);
        if (d >= 0 && !DimensionExprs.readsFolds(e, sources)) {
            return new StarPipeline.GroupKey(d, DimensionExprs.toBuildColumns(e, sources), -1, -1, false, null, -1);
        }
        if (e instanceof ColumnRef c && sources.get(c.index()) instanceof ColumnOrigin.Fact f
                && f.type().kind() != DataType.Kind.DOUBLE && fact.table().column(f.tableColumn()).stats() != null) {
            return new StarPipeline.GroupKey(-1, null, f.tableColumn(), program.factGroupKey(e), false, null, -1);
        }
        if (e instanceof ColumnRef c && sources.get(c.index()) instanceof ColumnOrigin.FactKey k) {
            return new StarPipeline.GroupKey(-1, null, k.tableColumn(), program.codeGroupKey(k.tableColumn()), true, null,
                    -1);
        }
        int[] columns = ExprCompiler.columnsOf(e);
        if (columns.length == 1 && sources.get(columns[0]) instanceof ColumnOrigin.Fact f
                && f.type().kind() == DataType.Kind.VARCHAR) {
            int[] ranked = program.rankedGroupKey(e);
            return new StarPipeline.GroupKey(-1, e, -1, ranked[1], false, null, ranked[0]);
        }
        var range = KeyValueRange.of(e, this::factValueStats);
        if (range.isPresent()) {
            return new StarPipeline.GroupKey(-1, e, -1, program.factGroupKey(e), false, range.get(), -1);
        }
        throw new Unsupported("a group key computed from several tables, or from fact columns (but one string column) "
                + "without a known range");
    }

    /**
     * The value statistics of pipeline column {@code c} when it is the fact table's (a foreign key's:
     * its referenced key's), or a fold of folded groups that they bound ({@link #foldStats}).
     */
    private Optional<ColumnStats> factValueStats(int c) {
        return switch (sources.get(c)) {
            case ColumnOrigin.Fact f -> Optional.ofNullable(fact.table().column(f.tableColumn()).stats());
            case ColumnOrigin.FactKey k -> ColumnValueStats.of(fact.table().column(k.tableColumn()), catalog);
            case ColumnOrigin.Dim d when d.fold() != null && dimensions.get(d.dimension()).foldsGroups() -> foldStats(d);
            default -> Optional.empty();
        };
    }

    /**
     * Bounds of the values a column of folded groups takes where a group is: a count's, from 0 to
     * the rows of the table it counts; the key's, and a least or greatest value's, those of the
     * column folded. A sum has none.
     */
    private Optional<ColumnStats> foldStats(ColumnOrigin.Dim d) {
        AggregateNode a = dimensions.get(d.dimension()).folded();
        if (d.fold() == AggKind.COUNT) {
            long rows = mostRows(a.input());
            return Optional.of(new ColumnStats(rows, 0, rows + 1, false, 0, rows, 0, rows, List.of(), rows));
        }
        int c = d.buildColumn();
        return d.fold() == AggKind.SUM_I ? Optional.empty() : c == 0 ? ColumnValueStats.of(a, 0, catalog)
                : ColumnValueStats.of(a.input(), a.calls().get(c - 1).argument(), catalog);
    }

    /**
     * Where {@code call}'s states are, adding its slots. A DISTINCT call (but MIN and MAX, which
     * repeats do not change) folds only the rows that bring their group a new value
     * ({@link StarPipeline.Distinct}); {@code distinctValues} bounds the values its argument holds.
     */
    private StarPipeline.CallStates callStates(AggCall call, DataType argType, List<Expr> in, ProgramBuilder program,
                                               List<StarPipeline.Slot> slots, Map<StarPipeline.Slot, Integer> index,
                                               long distinctValues)
            throws Unsupported {
        boolean distinct = call.distinct() && call.function() != AggregateNode.Function.MIN
                && call.function() != AggregateNode.Function.MAX;
        if (argType != null && argType.kind() == DataType.Kind.VARCHAR && !(distinct
                && call.function() == AggregateNode.Function.COUNT && isFactColumn(in.get(call.argument())))) {
            throw new Unsupported(call.function() + (distinct ? "(DISTINCT) of strings but a fact table's column"
                    : " of strings"));
        }
        int filter = call.filter() < 0 ? -1 : program.register(in.get(call.filter()));
        int arg = argType == null ? -1 : program.register(in.get(call.argument()));
        StarPipeline.Distinct seen = distinct ? new StarPipeline.Distinct(arg, filter,
                argType.kind() == DataType.Kind.DOUBLE, distinctValues) : null;
        boolean doubles = AggregateStates.usesDoubles(call, argType);
        int value = arg;
        if (doubles && argType.kind() != DataType.Kind.DOUBLE) {
            value = program.register(new Call(Call.Op.CAST, List.of(in.get(call.argument())), DataType.DOUBLE,
                    argType != null && in.get(call.argument()).nullable()));
        }
        boolean nullable = argType != null && in.get(call.argument()).nullable();
        int count = slot(new StarPipeline.Slot(AggKind.COUNT, nullable ? arg : -1, filter, seen), slots, index);
        AggKind kind = switch (call.function()) {
            case COUNT_STAR, COUNT -> null;
            case SUM, AVG -> doubles ? AggKind.SUM_F : AggKind.SUM_I;
            case MIN -> doubles ? AggKind.MIN_F : AggKind.MIN_I;
            case MAX -> doubles ? AggKind.MAX_F : AggKind.MAX_I;
        };
        return new StarPipeline.CallStates(count, kind == null ? -1
                : slot(new StarPipeline.Slot(kind, value, filter, seen), slots, index));
    }

    /** Whether {@code e} is a column of the fact table as stored (a string column's codes, one per distinct string). */
    private boolean isFactColumn(Expr e) {
        return e instanceof ColumnRef c && sources.get(c.index()) instanceof ColumnOrigin.Fact;
    }

    /**
     * At most how many distinct values {@code call}'s argument holds, when it is a column scanned
     * and passed on whose statistics count them exactly; else {@link Long#MAX_VALUE}.
     */
    private long distinctValues(AggregateNode node, AggCall call) {
        if (!call.distinct() || call.argument() < 0) {
            return Long.MAX_VALUE;
        }
        return ColumnValueStats.of(node.input(), call.argument(), catalog).filter(ColumnStats::distinctExact)
                .map(ColumnStats::distinct).orElse(Long.MAX_VALUE);
    }

    private static int slot(StarPipeline.Slot s, List<StarPipeline.Slot> slots, Map<StarPipeline.Slot, Integer> index) {
        return index.computeIfAbsent(s, k -> {
            slots.add(k);
            return slots.size() - 1;
        });
    }

    private Expr ref(ColumnOrigin s) {
        sources.add(s);
        boolean nullable = switch (s) {
            case ColumnOrigin.Fact f -> f.nullable();
            case ColumnOrigin.FactKey k -> k.nullable();
            case ColumnOrigin.RowId r -> false;
            case ColumnOrigin.Dim d -> d.nullable();
        };
        return new ColumnRef(sources.size() - 1, s.type(), nullable);
    }

    /** The dense codes foreign key {@code key} stores, instead of the key values they point at. */
    private Expr codes(ColumnOrigin.FactKey key) {
        return ref(new ColumnOrigin.Fact(key.tableColumn(), DataType.INTEGER, key.nullable()));
    }

}
