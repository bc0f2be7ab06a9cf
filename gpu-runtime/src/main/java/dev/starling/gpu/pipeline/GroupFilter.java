package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.ExprText;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.KernelStructs;
import dev.starling.storage.DataType;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conjuncts of a HAVING condition (a filter directly over an aggregation, or an inner join of
 * its rows with a scalar subquery's one row) that the GPU applies to the groups as it compacts
 * them, so that only groups that can pass cross the link: a COUNT, or an exact SUM, MIN or MAX,
 * compared with a constant or with a column of the scalar's row (whose value binds the term when
 * the scalar has run, before the pipeline: {@link #bind}). The CPU's filter or join still applies
 * the whole condition to the groups that come back, so the device only needs to keep no group out
 * that the condition keeps: each term is exact (the constant is its bound at the state's scale,
 * {@link ExprLowering#boundAtScale}), a SUM past 64 bits passes, and so does a value that a
 * widening CAST in the comparison would take past 64 bits ({@link Term#passBeyond}), for the host
 * to report. {@code text}: the applied conjuncts, for EXPLAIN; {@code scalar}: the plan whose row
 * the unbound terms read (null: none).
 */
public record GroupFilter(List<Term> terms, List<Unbound> unbound, PlanNode scalar, String text) {
    /** A conjunct the GPU applies: its constant known, or read from the scalar's row. */
    sealed interface Applied permits Term, Unbound { }

    /** What a term reads of a group's states; the kernel's {@code GroupTermKind}, in this order. */
    enum Kind { COUNT, SUM, EXTREME }

    /** The kernel's {@code GroupComparison}, in this order. */
    enum Comparison { EQ, NE, LT, LE, GT, GE }

    /**
     * {@code value comparison constant}, where the value is the count in slot {@code countSlot}
     * (COUNT), or the state of {@code valueSlot} (SUM, EXTREME), NULL when {@code countSlot} counts
     * none; a value of magnitude past {@code passBeyond} passes whatever the comparison says.
     */
    record Term(Kind kind, Comparison comparison, int countSlot, int valueSlot, long constant, long passBeyond)
            implements Applied {
        Term(Kind kind, Comparison comparison, int countSlot, int valueSlot, long constant) {
            this(kind, comparison, countSlot, valueSlot, constant, Long.MAX_VALUE);
        }
    }

    /**
     * A term whose constant is column {@code scalarColumn} of the scalar's row, compared by
     * {@code op}, brought to the states' {@code scale} when it binds.
     */
    record Unbound(Term term, Call.Op op, int scalarColumn, int scale) implements Applied { }

    private static final VarHandle CONSTANT = KernelStructs.GROUP_TERM.arrayField("constant");
    private static final VarHandle PASS_BEYOND = KernelStructs.GROUP_TERM.arrayField("passBeyond");
    private static final VarHandle KIND = KernelStructs.GROUP_TERM.arrayField("kind");
    private static final VarHandle COMPARISON = KernelStructs.GROUP_TERM.arrayField("comparison");
    private static final VarHandle COUNT_SLOT = KernelStructs.GROUP_TERM.arrayField("countSlot");
    private static final VarHandle VALUE_SLOT = KernelStructs.GROUP_TERM.arrayField("valueSlot");

    public GroupFilter {
        terms = List.copyOf(terms);
        unbound = List.copyOf(unbound);
    }

    /** As {@link #of(StarPipeline, Expr, PlanNode)} for a condition over the aggregation's rows alone. */
    public static Optional<GroupFilter> of(StarPipeline pipeline, Expr having) {
        return of(pipeline, having, null);
    }

    /**
     * The conjuncts of {@code having} (over the output of {@code pipeline}'s grouped aggregation,
     * then {@code scalar}'s columns when it is not null) that the GPU can apply; empty when none
     * can (or {@code having} is null, or the aggregation has no group keys: its one row always
     * comes back).
     */
    public static Optional<GroupFilter> of(StarPipeline pipeline, Expr having, PlanNode scalar) {
        if (having == null || pipeline.keys().isEmpty()) {
            return Optional.empty();
        }
        List<Term> terms = new ArrayList<>();
        List<Unbound> unbound = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<Field> columns = new ArrayList<>(pipeline.aggregate().output());
        if (scalar != null) {
            columns.addAll(scalar.output());
        }
        List<String> names = Field.labels(columns);
        for (Expr conjunct : Call.conjuncts(having)) {
            term(pipeline, conjunct, scalar).ifPresent(t -> {
                switch (t) {
                    case Term constant -> terms.add(constant);
                    case Unbound u -> unbound.add(u);
                }
                texts.add(ExprText.of(conjunct, names));
            });
        }
        return texts.isEmpty() ? Optional.empty() : Optional.of(new GroupFilter(terms, unbound,
                unbound.isEmpty() ? null : scalar, String.join(" AND ", texts)));
    }

    /**
     * The filter with its unbound terms bound to {@code scalarRows}, the scalar's rows. A term whose
     * value is NULL, or has no bound at the states' scale, is left out (the CPU decides); so are
     * all of them when the scalar has no row (the inner join keeps no group then anyway).
     */
    public GroupFilter bind(Batch scalarRows) {
        List<Term> bound = new ArrayList<>(terms);
        for (Unbound u : unbound) {
            if (scalarRows.rows() == 0 || scalarRows.column(u.scalarColumn()).isNull(0)) {
                continue;
            }
            Vector column = scalarRows.column(u.scalarColumn());
            BigDecimal value = BigDecimal.valueOf(column.getLong(0), column.type().scale());
            Term t = u.term();
            ExprLowering.boundAtScale(u.op(), value, u.scale()).ifPresent(c -> bound.add(
                    new Term(t.kind(), t.comparison(), t.countSlot(), t.valueSlot(), c, t.passBeyond())));
        }
        return new GroupFilter(bound, List.of(), null, text);
    }

    /** {@code filter} (bound; null: none) with {@code term} too, which {@code text} names. */
    static GroupFilter and(GroupFilter filter, Term term, String text) {
        if (filter == null) {
            return new GroupFilter(List.of(term), List.of(), null, text);
        }
        List<Term> terms = new ArrayList<>(filter.terms());
        terms.add(term);
        return new GroupFilter(terms, filter.unbound(), filter.scalar(), filter.text() + " AND " + text);
    }

    /**
     * {@code e} as a term (a {@link Term} or, comparing with the scalar, an {@link Unbound}): an
     * aggregate call's result, or a widening CAST of it, compared with a constant or a column of
     * the scalar, either way round.
     */
    private static Optional<Applied> term(StarPipeline pipeline, Expr e, PlanNode scalar) {
        if (!(e instanceof Call c) || c.args().size() != 2 || comparison(c.op()) == null) {
            return Optional.empty();
        }
        int aggregateWidth = pipeline.aggregate().output().size();
        for (int side = 0; side < 2; side++) {
            Expr value = c.args().get(side);
            Expr other = c.args().get(1 - side);
            Call.Op op = side == 0 ? c.op() : c.op().flipped();
            Optional<Widened> widened = Widened.of(value, aggregateWidth);
            if (widened.isEmpty()) {
                continue;
            }
            if (other instanceof Literal constant) {
                return term(pipeline, widened.get(), op, constant).map(Applied.class::cast);
            }
            if (scalar != null && other instanceof ColumnRef ref && ref.index() >= aggregateWidth) {
                return unbound(pipeline, widened.get(), op, ref).map(Applied.class::cast);
            }
        }
        return Optional.empty();
    }

    /**
     * An aggregation output column, compared as {@code type}: its own, or through a CAST that only
     * adds fractional digits, which takes values of magnitude past {@code passBeyond} past 64 bits
     * ({@link Long#MAX_VALUE} without a CAST).
     */
    private record Widened(ColumnRef column, DataType type, long passBeyond) {
        /** The scale of the states the column reads (checked to be its own), at which a constant is bound. */
        int stateScale() {
            return column.type().scale();
        }

        static Optional<Widened> of(Expr e, int aggregateWidth) {
            if (e instanceof ColumnRef ref && ref.index() < aggregateWidth) {
                return Optional.of(new Widened(ref, ref.type(), Long.MAX_VALUE));
            }
            if (e instanceof Call cast && cast.op() == Call.Op.CAST && cast.args().get(0) instanceof ColumnRef ref
                    && ref.index() < aggregateWidth && ref.type().isExactNumeric() && cast.type().isExactNumeric()
                    && cast.type().scale() >= ref.type().scale()) {
                return Optional.of(new Widened(ref, cast.type(),
                        Long.MAX_VALUE / BigInteger.TEN.pow(cast.type().scale() - ref.type().scale()).longValueExact()));
            }
            return Optional.empty();
        }
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

    /** {@code value op constant}, the constant brought to the states' scale as the CPU's comparison would see it. */
    private static Optional<Term> term(StarPipeline pipeline, Widened value, Call.Op op, Literal constant) {
        if (constant.value() == null || !comparable(value.type(), constant.type())) {
            return Optional.empty();
        }
        return template(pipeline, value, op).flatMap(t -> ExprLowering.boundAtScale(op,
                        BigDecimal.valueOf((Long) constant.value(), constant.type().scale()), value.stateScale())
                .map(c -> new Term(t.kind(), t.comparison(), t.countSlot(), t.valueSlot(), c, t.passBeyond())));
    }

    /** {@code value op} the scalar's column {@code ref}, to be bound when the scalar has run. */
    private static Optional<Unbound> unbound(StarPipeline pipeline, Widened value, Call.Op op, ColumnRef ref) {
        if (!comparable(value.type(), ref.type())) {
            return Optional.empty();
        }
        int column = ref.index() - pipeline.aggregate().output().size();
        return template(pipeline, value, op).map(t -> new Unbound(t, op, column, value.stateScale()));
    }

    /**
     * The term comparing {@code value} by {@code op}, its constant not yet known (0), if the GPU can
     * apply it: the aggregate's result is its state ({@link GroupProgram#finish}), a count or an
     * integer's.
     */
    private static Optional<Term> template(StarPipeline pipeline, Widened value, Call.Op op) {
        int call = value.column().index() - pipeline.keys().size();
        if (call < 0) {
            return Optional.empty();
        }
        return GroupProgram.finish(pipeline, call).flatMap(f -> {
            Kind kind = switch (f.finish()) {
                case COUNT -> Kind.COUNT;
                case SUM -> Kind.SUM;
                case VALUE -> {
                    AggKind k = pipeline.slots().get(f.valueSlot()).kind();
                    yield k == AggKind.MIN_I || k == AggKind.MAX_I ? Kind.EXTREME : null;
                }
            };
            return kind == null ? Optional.empty()
                    : Optional.of(new Term(kind, comparison(op), f.countSlot(), f.valueSlot(), 0, value.passBeyond()));
        });
    }

    private static boolean comparable(DataType value, DataType other) {
        return value.kind() == DataType.Kind.DATE ? other.kind() == DataType.Kind.DATE
                : value.isExactNumeric() && other.isExactNumeric();
    }

    /** The terms as the kernel reads them, an array of {@code GroupTerm}; every term bound. */
    ByteBuffer words() {
        if (!unbound.isEmpty()) {
            throw new IllegalStateException("HAVING terms not bound to their scalar: " + text);
        }
        ByteBuffer bytes = DeviceArrays.buffer(terms.size() * KernelStructs.GROUP_TERM.bytes());
        MemorySegment segment = MemorySegment.ofBuffer(bytes);
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            CONSTANT.set(segment, 0L, (long) i, t.constant());
            PASS_BEYOND.set(segment, 0L, (long) i, t.passBeyond());
            KIND.set(segment, 0L, (long) i, t.kind().ordinal());
            COMPARISON.set(segment, 0L, (long) i, t.comparison().ordinal());
            COUNT_SLOT.set(segment, 0L, (long) i, t.countSlot());
            VALUE_SLOT.set(segment, 0L, (long) i, t.valueSlot());
        }
        return bytes;
    }
}
