package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import jcuda.Pointer;

/**
 * The plan over a star pipeline's aggregation that the GPU computes from the groups before
 * anything comes back: projections (TPC-H Q14's promotion share of two sums, Q8's market share
 * per year), filters (a HAVING, exactly), an inner join with a scalar subquery's one row (Q11's
 * groups above a fraction of the total), and the largest or smallest value of one column of the
 * groups (Q15's best revenue: {@code extreme}, the first group by the order cut that keeps only
 * it and its ties, {@link GroupOrder}, whose value any of them holds). Each aggregate it reads is finished on the device as a
 * column ({@code finish_groups}); its conditions and expressions, the scalar's columns bound as
 * constants once it has run, become a program of the one expression IR ({@link ProgramBuilder})
 * that runs a group a row, and only the rows that pass cross the link. A group key passes through
 * as the host decodes it from the group ids; the plan stays on the CPU when a condition or an
 * expression computes from a key or a string, or reads an AVG (the host rounds its quotient) or
 * a result at another scale than its states'.
 * {@code top}: the plan; {@code filters} and {@code outputs}: its conditions and its columns, over
 * the aggregation's columns and then the scalar's ({@code scalar}, null: none); {@code keyOf}: per
 * output column, the group key it passes (>= 0) or -1; {@code finishable}: per aggregate call, how
 * the device finishes it (null: it cannot); {@code text}: what it computes, for EXPLAIN.
 */
public record GroupProgram(PlanNode top, List<Expr> filters, List<Expr> outputs, int[] keyOf, PlanNode scalar,
                           boolean extreme, AggregateNode aggregate, List<Finished> finishable, String text) {
    private static final String SOURCE = "star_pipeline";

    /** How {@code finish_groups} finishes an aggregate from its states; the kernel's {@code FinishKind}, in this order. */
    enum Finish { COUNT, SUM, VALUE }

    /** An aggregate finished as {@code finish} says from its states in {@code countSlot} and {@code valueSlot} (-1: none). */
    record Finished(Finish finish, int countSlot, int valueSlot) { }

    /** What a run computed: the plan's rows, or (null) why it handed them back. */
    record Computed(Batch rows, String declined) { }

    public GroupProgram {
        filters = List.copyOf(filters);
        outputs = List.copyOf(outputs);
        finishable = Collections.unmodifiableList(new ArrayList<>(finishable));
    }

    /** {@code top}, the plan over {@code pipeline}'s groups, computed on the GPU, if it can be. */
    public static Optional<GroupProgram> of(StarPipeline pipeline, PlanNode top) {
        AggregateNode aggregate = pipeline.aggregate();
        if (aggregate == null) {
            return Optional.empty();
        }
        int keys = pipeline.keys().size();
        List<Finished> finishable = new ArrayList<>();
        for (int c = 0; c < aggregate.calls().size(); c++) {
            finishable.add(finish(pipeline, c).orElse(null));
        }
        try {
            Walk walk = new Walk(aggregate);
            List<Expr> outputs = walk.of(top);
            int[] keyOf = new int[outputs.size()];
            List<Expr> read = new ArrayList<>(walk.filters);
            for (int i = 0; i < outputs.size(); i++) {
                Expr e = outputs.get(i);
                keyOf[i] = e instanceof ColumnRef ref && ref.index() < keys ? ref.index() : -1;
                if (keyOf[i] < 0) {
                    if (e.type().kind() == DataType.Kind.VARCHAR) {
                        return Optional.empty();
                    }
                    read.add(e);
                }
            }
            int width = aggregate.output().size();
            for (Expr e : read) {
                for (int c : ExprCompiler.columnsOf(e)) {
                    boolean scalarColumn = c >= width;
                    if (scalarColumn ? walk.scalar.output().get(c - width).type().kind() == DataType.Kind.VARCHAR
                            : c < keys || finishable.get(c - keys) == null) {
                        return Optional.empty();
                    }
                }
            }
            List<String> names = new ArrayList<>(Field.labels(aggregate.output()));
            if (walk.scalar != null) {
                names.addAll(Field.labels(walk.scalar.output()));
            }
            List<String> computed = new ArrayList<>();
            walk.filters.forEach(f -> computed.add("WHERE " + ExprText.of(f, names)));
            for (int i = 0; i < outputs.size(); i++) {
                if (keyOf[i] < 0) {
                    computed.add(ExprText.of(outputs.get(i), names));
                }
            }
            if (walk.extreme) {
                computed.add("the first group's, by an order cut");
            }
            GroupProgram program = new GroupProgram(top, walk.filters, outputs, keyOf, walk.scalar, walk.extreme,
                    aggregate, finishable, String.join(", ", computed));
            program.compile(program.placeholders());
            return Optional.of(program);
        } catch (Unsupported e) {
            return Optional.empty();
        }
    }

    /**
     * The plan's rows as expressions over the aggregation's columns, then the scalar's, and the
     * conditions a row must pass; only projections, filters, one inner join with a plan of at most
     * one row, and an extreme of one column of the groups, with nothing but projections above it,
     * may lie between {@code top} and the aggregation.
     */
    private static final class Walk {
        private final AggregateNode aggregate;
        private final List<Expr> filters = new ArrayList<>();
        private PlanNode scalar;
        private boolean extreme;

        Walk(AggregateNode aggregate) {
            this.aggregate = aggregate;
        }

        List<Expr> of(PlanNode node) throws Unsupported {
            if (node == aggregate) {
                return refs(aggregate.output(), 0);
            }
            switch (node) {
                case ProjectNode p -> {
                    List<Expr> in = of(p.input());
                    return p.expressions().stream().map(e -> Expr.substitute(e, in)).toList();
                }
                case FilterNode f -> {
                    List<Expr> in = of(f.input());
                    rowsKept();
                    filters.add(Expr.substitute(f.condition(), in));
                    return in;
                }
                case AggregateNode m when m.groupKeys().length == 0 && !m.calls().isEmpty() && !extreme -> {
                    List<Expr> in = of(m.input());
                    AggCall first = m.calls().get(0);
                    if (!filters.isEmpty() || scalar != null || m.calls().stream().anyMatch(c -> c.filter() >= 0
                            || c.function() != first.function() || c.argument() != first.argument())
                            || first.function() != AggregateNode.Function.MAX && first.function() != AggregateNode.Function.MIN) {
                        throw new Unsupported("an aggregation of the groups other than the extreme of one column");
                    }
                    extreme = true;
                    return m.calls().stream().map(c -> in.get(c.argument())).toList();
                }
                case HashJoinNode j when j.kind() == JoinKind.INNER && !j.markProbe() && scalar == null -> {
                    List<Expr> out = new ArrayList<>(of(j.probe()));
                    rowsKept();
                    scalar = j.build();
                    int probeWidth = out.size();
                    out.addAll(refs(scalar.output(), aggregate.output().size()));
                    for (int k = 0; k < j.probeKeys().length; k++) {
                        Expr p = out.get(j.probeKeys()[k]);
                        Expr b = out.get(probeWidth + j.buildKeys()[k]);
                        filters.add(new Call(Call.Op.EQ, List.of(p, b), DataType.BOOLEAN, p.nullable() || b.nullable()));
                    }
                    if (j.residual() != null) {
                        filters.add(Expr.substitute(j.residual(), out));
                    }
                    return out;
                }
                default -> throw new Unsupported(node.describe().split(" ")[0] + " over the groups");
            }
        }

        /** A filter or join above an extreme would drop its one row, which the program never leaves out. */
        private void rowsKept() throws Unsupported {
            if (extreme) {
                throw new Unsupported("a filter or join over an extreme of the groups");
            }
        }

        private static List<Expr> refs(List<Field> fields, int from) {
            List<Expr> out = new ArrayList<>();
            for (int c = 0; c < fields.size(); c++) {
                out.add(new ColumnRef(from + c, fields.get(c).type(), fields.get(c).nullable()));
            }
            return out;
        }
    }

    /**
     * How aggregate call {@code call} is finished on the device, if it can be: a count, or a SUM,
     * MIN or MAX whose result is its state (a double's, or an exact one at its argument's scale;
     * the host rounds others to their result's). The HAVING terms compare such states too
     * ({@link GroupFilter}).
     */
    static Optional<Finished> finish(StarPipeline pipeline, int call) {
        AggregateNode aggregate = pipeline.aggregate();
        AggCall agg = aggregate.calls().get(call);
        StarPipeline.CallStates states = pipeline.calls().get(call);
        return switch (agg.function()) {
            case COUNT_STAR, COUNT -> Optional.of(new Finished(Finish.COUNT, states.countSlot(), -1));
            case SUM, MIN, MAX -> {
                AggKind kind = pipeline.slots().get(states.valueSlot()).kind();
                boolean doubles = kind == AggKind.SUM_F || kind == AggKind.MIN_F || kind == AggKind.MAX_F;
                DataType argument = aggregate.input().output().get(agg.argument()).type();
                boolean asStates = doubles ? agg.type().kind() == DataType.Kind.DOUBLE
                        : agg.type().kind() != DataType.Kind.DOUBLE && agg.type().kind() != DataType.Kind.VARCHAR
                        && argument.scale() == agg.type().scale();
                yield asStates ? Optional.of(new Finished(kind == AggKind.SUM_I ? Finish.SUM : Finish.VALUE,
                        states.countSlot(), states.valueSlot())) : Optional.empty();
            }
            case AVG -> Optional.empty();
        };
    }

    /** Zeros of the scalar's column types, standing for its values when the program is checked before it runs. */
    private List<Literal> placeholders() {
        return scalar == null ? List.of() : scalar.output().stream().map(f -> switch (f.type().kind()) {
            case DOUBLE -> new Literal(0.0, f.type());
            case BOOLEAN -> new Literal(false, f.type());
            default -> new Literal(0L, f.type());
        }).toList();
    }

    /** The program bound to {@code scalarRows}, the scalar's rows (null when there is no scalar), ready to run. */
    public Bound bind(Batch scalarRows) {
        if (scalar != null && scalarRows.rows() == 0) {
            // the inner join with no row keeps no group
            return new Bound(null);
        }
        List<Literal> values = new ArrayList<>();
        for (int c = 0; scalar != null && c < scalar.output().size(); c++) {
            Vector v = scalarRows.column(c);
            DataType type = scalar.output().get(c).type();
            values.add(new Literal(v.isNull(0) ? null : switch (type.kind()) {
                case DOUBLE -> v.getDouble(0);
                case BOOLEAN -> v.getLong(0) != 0;
                default -> v.getLong(0);
            }, type));
        }
        try {
            return new Bound(compile(values));
        } catch (Unsupported e) {
            throw new IllegalStateException("a program over the groups that compiled with placeholders did not: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The program with the scalar's columns as {@code values}: its code and constants, per output
     * column the register holding its value (-1: a key), the register of the group's index, and
     * the aggregates it reads in the order of its columns.
     */
    private record Compiled(int[] code, long[] constants, int[] registers, int rowRegister, List<Finished> finished) { }

    private Compiled compile(List<Literal> values) throws Unsupported {
        int width = aggregate.output().size();
        List<ColumnOrigin> sources = new ArrayList<>();
        List<Expr> inputs = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            Field f = aggregate.output().get(c);
            sources.add(new ColumnOrigin.Fact(c, f.type(), f.nullable()));
            inputs.add(new ColumnRef(c, f.type(), f.nullable()));
        }
        sources.add(new ColumnOrigin.RowId(DataType.BIGINT));
        inputs.addAll(values);
        ProgramBuilder program = new ProgramBuilder(sources, c -> {
            throw new IllegalStateException("no string column over the groups");
        });
        for (Expr f : filters) {
            program.filter(Expr.substitute(f, inputs));
        }
        int[] registers = new int[outputs.size()];
        for (int i = 0; i < registers.length; i++) {
            registers[i] = keyOf[i] >= 0 ? -1 : program.register(Expr.substitute(outputs.get(i), inputs));
        }
        int row = program.register(new ColumnRef(width, DataType.BIGINT, false));
        int keys = width - aggregate.calls().size();
        List<Finished> finished = program.factColumns().stream().map(c -> finishable.get(c - keys)).toList();
        return new Compiled(program.code(), program.constants(), registers, row, finished);
    }

    /** The program bound to the scalar's row ({@code compiled} null: the scalar has no row, and no group passes). */
    public final class Bound {
        private final Compiled compiled;

        private Bound(Compiled compiled) {
            this.compiled = compiled;
        }

        /** Whether it takes an extreme of the groups, which needs the order cut to have kept only the first of them. */
        boolean extreme() {
            return extreme;
        }

        /**
         * Runs the program over {@code n} groups whose states are at {@code words} ({@code stride}
         * words a record after its id, or, with stride 0, as they lie, {@code slotStep} words from
         * slot to slot), whose key columns the host decoded as {@code keys}, in the same order.
         */
        Computed run(GpuDevice device, long words, int n, int stride, long slotStep, Vector[] keys) {
            if (n == 0 || compiled == null) {
                return extreme ? extremeOf(empty(keys)) : new Computed(empty(keys), null);
            }
            device.makeCurrent();
            try (DeviceArrays arrays = new DeviceArrays(device.memory())) {
                DeviceBuffer status = arrays.upload(new int[] {0}, "status");
                List<StarKernelInput.Column> read = new ArrayList<>();
                for (Finished f : compiled.finished()) {
                    read.add(finished(device, arrays, f, words, n, stride, slotStep, status));
                }
                List<StarKernelInput.Output> outputs = new ArrayList<>();
                List<DeviceBuffer[]> buffers = new ArrayList<>();
                for (int i = 0; i <= keyOf.length; i++) {
                    int register = i == keyOf.length ? compiled.rowRegister() : compiled.registers()[i];
                    if (register >= 0) {
                        DeviceBuffer values = arrays.allocate(8L * n, "computed column");
                        DeviceBuffer nulls = arrays.allocate(n, "computed NULL flags");
                        outputs.add(new StarKernelInput.Output(register, values.address(), nulls.address(), 8));
                        buffers.add(new DeviceBuffer[] {values, nulls});
                    }
                }
                long[] constants = compiled.constants();
                DeviceBuffer constantWords = arrays.upload(constants.length == 0 ? new long[1] : constants, "constants");
                DeviceBuffer counter = arrays.allocate(8, "passing group counter");
                counter.clear();
                StarKernelInput input = new StarKernelInput(compiled.code(), constants.length, read, List.of(), List.of(),
                        List.of(), List.of(), List.of(), outputs, StarKernelInput.Accumulators.ROWS, null, null, List.of(),
                        null, null, constantWords.address(), status.address(), counter.address(), n, n);
                StarKernelLauncher.launch(device, StarKernelLauncher.compile(device, input), input, 0);
                // one status for both: a SUM past 64 bits the finish met, or a case the program met
                String met = KernelStatus.read(status);
                if (!met.isEmpty()) {
                    return new Computed(null, met);
                }
                long[] passed = new long[1];
                counter.download(Pointer.to(passed), 8);
                int m = (int) passed[0];
                // the program writes the groups that pass in no order: each row names its group
                long[] groups = WrittenValues.longs(buffers.get(buffers.size() - 1)[0], m);
                int[] at = new int[m];
                for (int j = 0; j < m; j++) {
                    at[j] = (int) groups[j];
                }
                List<Field> fields = top.output();
                Vector[] columns = new Vector[keyOf.length];
                int b = 0;
                for (int i = 0; i < columns.length; i++) {
                    if (keyOf[i] >= 0) {
                        columns[i] = keys[keyOf[i]].gather(at, m);
                    } else {
                        DeviceBuffer[] out = buffers.get(b++);
                        columns[i] = WrittenValues.read(fields.get(i).type(), out[0], out[1], m);
                    }
                }
                Batch rows = new Batch(columns, m);
                return extreme ? extremeOf(rows) : new Computed(rows, null);
            }
        }
    }

    /**
     * The one row of an extreme, from {@code rows}, the groups the order cut kept (the extreme and
     * its ties, which hold its value): the first whose value is not NULL, or, when none has one,
     * NULL; with no group at all, NULL where the extreme is the plan's row, else the CPU computes
     * what the plan makes of it.
     */
    private Computed extremeOf(Batch rows) {
        if (rows.rows() == 0) {
            return top instanceof AggregateNode ? new Computed(rows.gather(new int[] {-1}, 1), null)
                    : new Computed(null, "no group to take the extreme of");
        }
        int at = 0;
        while (at < rows.rows() - 1 && rows.column(0).isNull(at)) {
            at++;
        }
        return new Computed(rows.gather(new int[] {at}, 1), null);
    }

    /** Aggregate {@code f} of the {@code n} groups finished into a column of {@code arrays} ({@code finish_groups}). */
    private static StarKernelInput.Column finished(GpuDevice device, DeviceArrays arrays, Finished f, long words, int n,
                                                   int stride, long slotStep, DeviceBuffer status) {
        DeviceBuffer values = arrays.allocate(8L * n, "finished aggregate");
        DeviceBuffer nulls = arrays.allocate(n, "finished aggregate NULL flags");
        GridLaunch.run(device, SOURCE, "finish_groups", n, Pointer.to(new long[] {words}), Pointer.to(new long[] {n}),
                Pointer.to(new int[] {stride}), Pointer.to(new long[] {slotStep}), Pointer.to(new int[] {f.countSlot()}),
                Pointer.to(new int[] {f.valueSlot()}), Pointer.to(new int[] {f.finish().ordinal()}),
                Pointer.to(values.pointer()), Pointer.to(nulls.pointer()), Pointer.to(status.pointer()),
                Pointer.to(new int[] {KernelStatus.OVERFLOW.bit}));
        return new StarKernelInput.Column(values.address(), f.finish() == Finish.COUNT ? 0 : nulls.address(), 8);
    }

    /** No row: the plan's columns, empty. */
    private Batch empty(Vector[] keys) {
        List<Field> fields = top.output();
        Vector[] columns = new Vector[keyOf.length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = keyOf[i] >= 0 ? keys[keyOf[i]].gather(new int[0], 0)
                    : WrittenValues.vector(fields.get(i).type(), new long[0], null);
        }
        return new Batch(columns, 0);
    }
}
