package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.ExprText;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.cuda.KernelStructs;
import dev.starling.storage.DataType;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conjuncts of a HAVING condition (a filter directly over an aggregation) that the GPU applies
 * to the groups as it compacts them, so that only groups that can pass cross the link: a COUNT, or
 * an exact SUM, MIN or MAX, compared with a constant. The CPU's filter still applies the whole
 * condition to the groups that come back, so the device only needs to keep no group out that the
 * condition keeps: each term is exact (the constant is its bound at the state's scale,
 * {@link ExprLowering#boundAtScale}), and a SUM past 64 bits passes, for the host to report.
 * {@code text}: the applied conjuncts, for EXPLAIN.
 */
public record GroupFilter(List<Term> terms, String text) {
    /** What a term reads of a group's states; the kernel's {@code GroupTermKind}, in this order. */
    enum Kind { COUNT, SUM, EXTREME }

    /** The kernel's {@code GroupComparison}, in this order. */
    enum Comparison { EQ, NE, LT, LE, GT, GE }

    /**
     * {@code value comparison constant}, where the value is the count in slot {@code countSlot}
     * (COUNT), or the state of {@code valueSlot} (SUM, EXTREME), NULL when {@code countSlot} counts none.
     */
    record Term(Kind kind, Comparison comparison, int countSlot, int valueSlot, long constant) { }

    private static final VarHandle CONSTANT = KernelStructs.GROUP_TERM.arrayField("constant");
    private static final VarHandle KIND = KernelStructs.GROUP_TERM.arrayField("kind");
    private static final VarHandle COMPARISON = KernelStructs.GROUP_TERM.arrayField("comparison");
    private static final VarHandle COUNT_SLOT = KernelStructs.GROUP_TERM.arrayField("countSlot");
    private static final VarHandle VALUE_SLOT = KernelStructs.GROUP_TERM.arrayField("valueSlot");

    public GroupFilter {
        terms = List.copyOf(terms);
    }

    /**
     * The conjuncts of {@code having} (over the output of {@code pipeline}'s grouped aggregation)
     * that the GPU can apply; empty when none can (or {@code having} is null, or the aggregation
     * has no group keys: its one row always comes back).
     */
    public static Optional<GroupFilter> of(StarPipeline pipeline, Expr having) {
        if (having == null || pipeline.keys().isEmpty()) {
            return Optional.empty();
        }
        List<Term> terms = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<String> names = Field.labels(pipeline.aggregate().output());
        for (Expr conjunct : Call.conjuncts(having)) {
            term(pipeline, conjunct).ifPresent(t -> {
                terms.add(t);
                texts.add(ExprText.of(conjunct, names));
            });
        }
        return terms.isEmpty() ? Optional.empty() : Optional.of(new GroupFilter(terms, String.join(" AND ", texts)));
    }

    /** {@code e} as a term: an aggregate call's result compared with a constant, either way round. */
    private static Optional<Term> term(StarPipeline pipeline, Expr e) {
        if (!(e instanceof Call c) || c.args().size() != 2 || comparison(c.op()) == null) {
            return Optional.empty();
        }
        if (c.args().get(0) instanceof ColumnRef column && c.args().get(1) instanceof Literal constant) {
            return term(pipeline, column, c.op(), constant);
        }
        if (c.args().get(0) instanceof Literal constant && c.args().get(1) instanceof ColumnRef column) {
            return term(pipeline, column, c.op().flipped(), constant);
        }
        return Optional.empty();
    }

    private static Comparison comparison(Call.Op op) {
        return switch (op) {
            case EQ -> Comparison.EQ;
            case NE -> Comparison.NE;
            case LT -> Comparison.LT;
            case LE -> Comparison.LE;
            case GT -> Comparison.GT;
            case GE -> Comparison.GE;
            default -> null;
        };
    }

    /** {@code column op constant}, the constant brought to the states' scale as the CPU's comparison would see it. */
    private static Optional<Term> term(StarPipeline pipeline, ColumnRef column, Call.Op op, Literal constant) {
        AggregateNode aggregate = pipeline.aggregate();
        int call = column.index() - pipeline.keys().size();
        if (call < 0 || constant.value() == null) {
            return Optional.empty();
        }
        AggCall agg = aggregate.calls().get(call);
        StarPipeline.CallStates states = pipeline.calls().get(call);
        DataType result = agg.type();
        if (!comparable(result, constant.type())) {
            return Optional.empty();
        }
        Kind kind = switch (agg.function()) {
            case COUNT_STAR, COUNT -> Kind.COUNT;
            case SUM -> pipeline.slots().get(states.valueSlot()).kind() == AggKind.SUM_I ? Kind.SUM : null;
            case MIN, MAX -> {
                AggKind k = pipeline.slots().get(states.valueSlot()).kind();
                yield k == AggKind.MIN_I || k == AggKind.MAX_I ? Kind.EXTREME : null;
            }
            case AVG -> null;
        };
        // the states hold the argument's values at its scale, the result is rounded to its own
        DataType argument = agg.argument() < 0 ? null : aggregate.input().output().get(agg.argument()).type();
        if (kind == null || (kind != Kind.COUNT && argument.scale() != result.scale())) {
            return Optional.empty();
        }
        BigDecimal value = BigDecimal.valueOf((Long) constant.value(), constant.type().scale());
        return ExprLowering.boundAtScale(op, value, result.scale())
                .map(v -> new Term(kind, comparison(op), states.countSlot(), states.valueSlot(), v));
    }

    private static boolean comparable(DataType result, DataType constant) {
        return result.kind() == DataType.Kind.DATE ? constant.kind() == DataType.Kind.DATE
                : result.isExactNumeric() && constant.isExactNumeric();
    }

    /** The terms as the kernel reads them, an array of {@code GroupTerm}. */
    ByteBuffer words() {
        ByteBuffer bytes = DeviceArrays.buffer(terms.size() * KernelStructs.GROUP_TERM.bytes());
        MemorySegment segment = MemorySegment.ofBuffer(bytes);
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            CONSTANT.set(segment, 0L, (long) i, t.constant());
            KIND.set(segment, 0L, (long) i, t.kind().ordinal());
            COMPARISON.set(segment, 0L, (long) i, t.comparison().ordinal());
            COUNT_SLOT.set(segment, 0L, (long) i, t.countSlot());
            VALUE_SLOT.set(segment, 0L, (long) i, t.valueSlot());
        }
        return bytes;
    }
}
