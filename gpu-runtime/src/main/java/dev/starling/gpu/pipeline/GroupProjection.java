package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import jcuda.Pointer;

/**
 * A projection directly over a star pipeline's aggregation that the GPU computes over the groups
 * before anything comes back (TPC-H Q14's promotion share of two sums, Q8's market share per
 * year): each aggregate it reads is finished on the device as a column ({@code finish_groups}),
 * then its expressions run over those columns as a program of the one expression IR
 * ({@link ProgramBuilder}), a group a row, and only its rows cross the link. A group key passes
 * through as the host decodes it from the group ids; the projection stays on the CPU when an
 * expression computes from a key or a string, or reads an AVG (the host rounds its quotient) or a
 * result at another scale than its states'.
 * {@code keyOf}: per output column, the group key it passes, else -1 and its value is in
 * register {@code registers} at that column; {@code rowRegister}: the register holding the
 * group's index, which orders the rows the program writes; {@code finished}: the aggregates the
 * program reads, in the order of its columns; {@code text}: the computed expressions, for EXPLAIN.
 */
public record GroupProjection(ProjectNode node, int[] keyOf, int[] registers, int rowRegister, int[] code,
                              long[] constants, List<Finished> finished, String text) {
    private static final String SOURCE = "star_pipeline";

    /** How {@code finish_groups} finishes an aggregate from its states; the kernel's {@code FinishKind}, in this order. */
    enum Finish { COUNT, SUM, VALUE }

    /** An aggregate finished as {@code finish} says from its states in {@code countSlot} and {@code valueSlot} (-1: none). */
    record Finished(Finish finish, int countSlot, int valueSlot) { }

    /** What a run computed: the projection's rows, or (null) why it handed them back. */
    record Projected(Batch rows, String declined) { }

    public GroupProjection {
        finished = List.copyOf(finished);
    }

    /** {@code project} computed over {@code pipeline}'s groups on the GPU, if it can be. */
    public static Optional<GroupProjection> of(StarPipeline pipeline, ProjectNode project) {
        AggregateNode aggregate = pipeline.aggregate();
        if (aggregate == null || project.input() != aggregate) {
            return Optional.empty();
        }
        int keys = pipeline.keys().size();
        List<Field> groups = aggregate.output();
        List<ColumnOrigin> sources = new ArrayList<>();
        for (int c = 0; c < groups.size(); c++) {
            sources.add(new ColumnOrigin.Fact(c, groups.get(c).type(), groups.get(c).nullable()));
        }
        sources.add(new ColumnOrigin.RowId(DataType.BIGINT));
        ProgramBuilder program = new ProgramBuilder(sources, c -> {
            throw new IllegalStateException("no string column over the groups");
        });
        List<Expr> expressions = project.expressions();
        int[] keyOf = new int[expressions.size()];
        int[] registers = new int[expressions.size()];
        try {
            for (int i = 0; i < expressions.size(); i++) {
                Expr e = expressions.get(i);
                keyOf[i] = e instanceof ColumnRef ref && ref.index() < keys ? ref.index() : -1;
                registers[i] = -1;
                if (keyOf[i] >= 0) {
                    continue;
                }
                if (e.type().kind() == DataType.Kind.VARCHAR) {
                    return Optional.empty();
                }
                for (int c : ExprCompiler.columnsOf(e)) {
                    if (c < keys || finish(pipeline, c - keys).isEmpty()) {
                        return Optional.empty();
                    }
                }
                registers[i] = program.register(e);
            }
            int row = program.register(new ColumnRef(groups.size(), DataType.BIGINT, false));
            List<Finished> finished = new ArrayList<>();
            for (int c : program.factColumns()) {
                finished.add(finish(pipeline, c - keys).orElseThrow());
            }
            List<String> names = Field.labels(groups);
            List<String> computed = new ArrayList<>();
            for (int i = 0; i < expressions.size(); i++) {
                if (keyOf[i] < 0) {
                    computed.add(ExprText.of(expressions.get(i), names));
                }
            }
            String text = String.join(", ", computed);
            return Optional.of(new GroupProjection(project, keyOf, registers, row, program.code(), program.constants(),
                    finished, text));
        } catch (Unsupported e) {
            return Optional.empty();
        }
    }

    /**
     * How aggregate call {@code call} is finished on the device, if it can be: a count, or a SUM,
     * MIN or MAX whose result is its state (a double's, or an exact one at its argument's scale).
     */
    private static Optional<Finished> finish(StarPipeline pipeline, int call) {
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

    /**
     * Runs the projection over {@code n} groups whose states are at {@code words} ({@code stride}
     * words a record after its id, or, with stride 0, as they lie, {@code slotStep} words from slot
     * to slot), whose key columns the host decoded as {@code keys}, in the same order.
     */
    Projected run(GpuDevice device, long words, int n, int stride, long slotStep, Vector[] keys) {
        List<Field> fields = node.output();
        Vector[] columns = new Vector[fields.size()];
        if (n == 0) {
            for (int i = 0; i < columns.length; i++) {
                columns[i] = keyOf[i] >= 0 ? keys[keyOf[i]] : WrittenValues.vector(fields.get(i).type(), new long[0], null);
            }
            return new Projected(new Batch(columns, 0), null);
        }
        device.makeCurrent();
        try (DeviceArrays arrays = new DeviceArrays(device.memory())) {
            DeviceBuffer status = arrays.upload(new int[] {0}, "status");
            List<StarKernelInput.Column> read = new ArrayList<>();
            for (Finished f : finished) {
                DeviceBuffer values = arrays.allocate(8L * n, "finished aggregate");
                DeviceBuffer nulls = arrays.allocate(n, "finished aggregate NULL flags");
                GridLaunch.run(device, SOURCE, "finish_groups", n, Pointer.to(new long[] {words}),
                        Pointer.to(new long[] {n}), Pointer.to(new int[] {stride}), Pointer.to(new long[] {slotStep}),
                        Pointer.to(new int[] {f.countSlot()}), Pointer.to(new int[] {f.valueSlot()}),
                        Pointer.to(new int[] {f.finish().ordinal()}), Pointer.to(values.pointer()),
                        Pointer.to(nulls.pointer()), Pointer.to(status.pointer()),
                        Pointer.to(new int[] {KernelStatus.OVERFLOW.bit}));
                read.add(new StarKernelInput.Column(values.address(), f.finish() == Finish.COUNT ? 0 : nulls.address(), 8));
            }
            String met = KernelStatus.read(status);
            if (!met.isEmpty()) {
                return new Projected(null, met);
            }
            List<StarKernelInput.Output> outputs = new ArrayList<>();
            List<DeviceBuffer[]> buffers = new ArrayList<>();
            for (int i = 0; i <= columns.length; i++) {
                int register = i == columns.length ? rowRegister : registers[i];
                if (register >= 0) {
                    DeviceBuffer values = arrays.allocate(8L * n, "projected column");
                    DeviceBuffer nulls = arrays.allocate(n, "projected NULL flags");
                    outputs.add(new StarKernelInput.Output(register, values.address(), nulls.address(), 8));
                    buffers.add(new DeviceBuffer[] {values, nulls});
                }
            }
            DeviceBuffer constantWords = arrays.upload(constants.length == 0 ? new long[1] : constants, "constants");
            DeviceBuffer counter = arrays.allocate(8, "projected row counter");
            counter.clear();
            StarKernelInput input = new StarKernelInput(code, constants.length, read, List.of(), List.of(), List.of(),
                    List.of(), List.of(), outputs, StarKernelInput.Accumulators.ROWS, null, null, List.of(), null, null,
                    constantWords.address(), status.address(), counter.address(), n, n);
            StarKernelLauncher.launch(device, StarKernelLauncher.compile(device, input), input, 0);
            met = KernelStatus.read(status);
            if (!met.isEmpty()) {
                return new Projected(null, met);
            }
            // the program writes its rows in no order: each is put back at its group's index
            DeviceBuffer[] rowBuffers = buffers.get(buffers.size() - 1);
            long[] rows = WrittenValues.longs(rowBuffers[0], n);
            int[] written = new int[n];
            for (int j = 0; j < n; j++) {
                written[(int) rows[j]] = j;
            }
            int b = 0;
            for (int i = 0; i < columns.length; i++) {
                if (keyOf[i] >= 0) {
                    columns[i] = keys[keyOf[i]];
                    continue;
                }
                DeviceBuffer[] out = buffers.get(b++);
                columns[i] = WrittenValues.read(fields.get(i).type(), out[0], out[1], n).gather(written, n);
            }
            return new Projected(new Batch(columns, n), null);
        }
    }
}
