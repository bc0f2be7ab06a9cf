package dev.starling.exec.expr;

import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Brings an expression into explicit form, the one form both backends evaluate (the CPU's vector
 * evaluators and the GPU's generated row programs): every conversion that SQL's typing rules imply
 * becomes a {@code CAST} of its own, so no evaluator knows a typing rule and the decimal rules are
 * written here once. In explicit form:
 * <ul>
 *   <li>ADD, SUBTRACT, MOD, NEGATE, ABS compute in one representation: their operands and result are
 *       all DOUBLE, or all exact at one scale (INTEGER, BIGINT and DECIMAL(p, 0) share scale 0);</li>
 *   <li>MULTIPLY and DIVIDE are all DOUBLE, or take exact operands of any scales to an exact result:
 *       the exact product (quotient) rounded half away from zero to the result's scale
 *       ({@link #productDrop}, {@link #quotientShift}); integer by integer division truncates;</li>
 *   <li>no arithmetic is typed INTEGER: it computes in 64 bits and a CAST to INTEGER checks the range;</li>
 *   <li>a comparison's operands share one representation, as do an IN's value and its literals
 *       (literals that no value of that representation can equal are dropped), and CASE's and
 *       COALESCE's values that of the result; a literal with more fractional digits than the exact
 *       value it is compared with becomes its bound at that value's scale ({@link #boundAtScale}),
 *       so the value is not rescaled (which could overflow) and the comparison stays exact;</li>
 *   <li>a numeric CAST of a literal that converts exactly is folded into the literal.</li>
 * </ul>
 * Exact arithmetic fails on 64-bit overflow in every backend; a GPU hands such a pipeline back.
 */
public final class ExprLowering {
    private ExprLowering() { }

    /** {@code e} in explicit form (an expression already in it comes back equal). */
    public static Expr lower(Expr e) {
        if (!(e instanceof Call c)) {
            return e;
        }
        List<Expr> args = new ArrayList<>(c.args().size());
        for (Expr a : c.args()) {
            args.add(lower(a));
        }
        return switch (c.op()) {
            case ADD, SUBTRACT, MOD -> additive(c, args);
            case MULTIPLY, DIVIDE -> multiplicative(c, args);
            case NEGATE, ABS -> unary(c, args.get(0));
            case EQ, NE, LT, LE, GT, GE -> comparison(c, args.get(0), args.get(1));
            case CASE -> branches(c, args, true);
            case COALESCE -> branches(c, args, false);
            case IN -> in(c, args);
            case CAST -> cast(args.get(0), c.type(), c.nullable());
            default -> new Call(c.op(), args, c.type(), c.nullable());
        };
    }

    /** How many decimal digits an exact MULTIPLY's product drops, rounding, to reach its result's scale (negative: gains). */
    public static int productDrop(Call multiply) {
        return multiply.args().get(0).type().scale() + multiply.args().get(1).type().scale() - multiply.type().scale();
    }

    /** An exact DIVIDE's result is (dividend * 10^shift) / divisor, rounded half away from zero. */
    public static int quotientShift(Call divide) {
        return divide.args().get(1).type().scale() + divide.type().scale() - divide.args().get(0).type().scale();
    }

    /** Whether an exact DIVIDE is integer division, which truncates. */
    public static boolean truncates(Call divide) {
        return divide.type().isIntegral() && divide.args().get(0).type().scale() == 0 && divide.args().get(1).type().scale() == 0;
    }

    /** Fails unless {@code c}'s operands are in explicit form with respect to {@code c}: the invariant evaluators rely on. */
    public static void requireExplicit(Call c) {
        List<Expr> a = c.args();
        boolean ok = switch (c.op()) {
            case ADD, SUBTRACT, MOD -> notInteger(c.type()) && fits(a.get(0).type(), c.type()) && fits(a.get(1).type(), c.type());
            case NEGATE, ABS -> notInteger(c.type()) && fits(a.get(0).type(), c.type());
            case MULTIPLY, DIVIDE -> notInteger(c.type()) && (isDouble(c.type())
                    ? isDouble(a.get(0).type()) && isDouble(a.get(1).type())
                    : a.get(0).type().isExactNumeric() && a.get(1).type().isExactNumeric());
            case EQ, NE, LT, LE, GT, GE -> sameRepresentation(a.get(0).type(), a.get(1).type());
            case CASE -> valuesFit(c, a, true);
            case COALESCE -> valuesFit(c, a, false);
            case IN -> a.subList(1, a.size()).stream().allMatch(l -> fits(l.type(), a.get(0).type()) || isNull(l));
            default -> true;
        };
        if (!ok) {
            throw new IllegalArgumentException("expression not in explicit form (lower it first): " + c);
        }
    }

    private static boolean valuesFit(Call c, List<Expr> a, boolean isCase) {
        for (int i = 0; i < a.size(); i++) {
            boolean value = !isCase || i % 2 == 1 || i == a.size() - 1;
            if (value && !fits(a.get(i).type(), c.type()) && !isNull(a.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static Expr additive(Call c, List<Expr> args) {
        DataType computed = commonRepresentation(args.get(0).type(), args.get(1).type(), c.type());
        return result(new Call(c.op(), List.of(to(args.get(0), computed), to(args.get(1), computed)),
                computed, c.nullable()), c.type());
    }

    private static Expr multiplicative(Call c, List<Expr> args) {
        if (isDouble(c.type()) || isDouble(args.get(0).type()) || isDouble(args.get(1).type())) {
            return result(new Call(c.op(), List.of(to(args.get(0), DataType.DOUBLE), to(args.get(1), DataType.DOUBLE)),
                    DataType.DOUBLE, c.nullable()), c.type());
        }
        requireExact(args.get(0).type(), c);
        requireExact(args.get(1).type(), c);
        DataType computed = exactAtScale(c.type().scale());
        return result(new Call(c.op(), args, fits(computed, c.type()) ? c.type() : computed, c.nullable()), c.type());
    }

    private static Expr unary(Call c, Expr arg) {
        DataType computed = isDouble(arg.type()) ? DataType.DOUBLE : exactAtScale(requireExact(arg.type(), c).scale());
        return result(new Call(c.op(), List.of(to(arg, computed)), computed, c.nullable()), c.type());
    }

    /** {@code computed} as {@code declared}: the same node when its values already are {@code declared}'s, else a CAST. */
    private static Expr result(Call computed, DataType declared) {
        if (computed.type().equals(declared)) {
            return computed;
        }
        if (fits(computed.type(), declared) && notInteger(declared)) {
            return new Call(computed.op(), computed.args(), declared, computed.nullable());
        }
        return new Call(Call.Op.CAST, List.of(computed), declared, computed.nullable());
    }

    private static Expr comparison(Call c, Expr a, Expr b) {
        // A literal that the other side's type holds exactly keeps that side a bare column (range filters, zone maps).
        if (b instanceof Literal lb && !(a instanceof Literal)) {
            Optional<Literal> exact = exactly(lb, a.type());
            if (exact.isPresent()) {
                return new Call(c.op(), List.of(a, exact.get()), c.type(), c.nullable());
            }
        }
        if (a instanceof Literal la && !(b instanceof Literal)) {
            Optional<Literal> exact = exactly(la, b.type());
            if (exact.isPresent()) {
                return new Call(c.op(), List.of(exact.get(), b), c.type(), c.nullable());
            }
        }
        if (b instanceof Literal lb && finerThan(lb, a.type())) {
            return bounded(c, c.op(), a, lb);
        }
        if (a instanceof Literal la && finerThan(la, b.type())) {
            return bounded(c, c.op().flipped(), b, la);
        }
        if (!isNumeric(a.type()) || !isNumeric(b.type())) {
            return new Call(c.op(), List.of(a, b), c.type(), c.nullable());
        }
        DataType common = commonRepresentation(a.type(), b.type(), DataType.BOOLEAN);
        return new Call(c.op(), List.of(to(a, common), to(b, common)), c.type(), c.nullable());
    }

    /** Whether {@code l} is an exact number with more fractional digits than values of exact {@code type} have. */
    private static boolean finerThan(Literal l, DataType type) {
        return l.value() != null && l.type().isExactNumeric() && type.isExactNumeric() && l.type().scale() > type.scale();
    }

    /**
     * {@code value op literal} (of comparison {@code c}), the literal finer than {@code value}'s
     * scale, as {@code value op bound}; for = and <> of a literal no value equals, {@code value <> value}
     * (FALSE for every value, NULL for NULL) or {@code value = value} (TRUE, NULL for NULL).
     */
    private static Expr bounded(Call c, Call.Op op, Expr value, Literal literal) {
        int scale = value.type().scale();
        Optional<Long> bound = boundAtScale(op, BigDecimal.valueOf((Long) literal.value(), literal.type().scale()), scale);
        if (bound.isEmpty()) {
            if (op != Call.Op.EQ && op != Call.Op.NE) {
                throw new IllegalStateException("no bound at scale " + scale + " for " + op + " " + literal);
            }
            return new Call(op == Call.Op.EQ ? Call.Op.NE : Call.Op.EQ, List.of(value, value), c.type(), c.nullable());
        }
        return comparison(new Call(op, List.of(value, literal), c.type(), c.nullable()), value,
                new Literal(bound.get(), exactAtScale(scale)));
    }

    /**
     * The constant, unscaled at {@code scale}, that values of that scale compare with by {@code op}
     * exactly as they compare with {@code value}: {@code value} rounded down for {@code >} and
     * {@code <=}, up for {@code >=} and {@code <}; for = and <> only {@code value} itself, when it
     * has that scale exactly (else empty, as when the bound passes 64 bits).
     */
    public static Optional<Long> boundAtScale(Call.Op op, BigDecimal value, int scale) {
        RoundingMode rounding = switch (op) {
            case GT, LE -> RoundingMode.FLOOR;
            case GE, LT -> RoundingMode.CEILING;
            case EQ, NE -> RoundingMode.UNNECESSARY;
            default -> throw new IllegalArgumentException(op + " is not a comparison");
        };
        try {
            return Optional.of(value.setScale(scale, rounding).unscaledValue().longValueExact());
        } catch (ArithmeticException notExact) {
            return Optional.empty();
        }
    }

    private static Expr branches(Call c, List<Expr> args, boolean isCase) {
        List<Expr> out = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            boolean value = !isCase || i % 2 == 1 || i == args.size() - 1;
            out.add(value ? to(args.get(i), c.type()) : args.get(i));
        }
        return new Call(c.op(), out, c.type(), c.nullable());
    }

    private static Expr in(Call c, List<Expr> args) {
        Expr value = args.get(0);
        List<Expr> out = new ArrayList<>();
        out.add(value);
        for (Expr e : args.subList(1, args.size())) {
            if (!(e instanceof Literal l)) {
                out.add(to(e, value.type()));
            } else if (l.value() == null) {
                out.add(new Literal(null, value.type()));
            } else if (value.type().kind() == DataType.Kind.VARCHAR) {
                out.add(l);
            } else {
                // a literal no value of the value's type can equal matches nothing
                exactly(l, value.type()).ifPresent(out::add);
            }
        }
        return new Call(Call.Op.IN, out, c.type(), c.nullable());
    }

    private static Expr cast(Expr arg, DataType to, boolean nullable) {
        if (arg.type().equals(to)) {
            return arg;
        }
        if (arg instanceof Literal l) {
            Optional<Literal> exact = exactly(l, to);
            if (exact.isPresent()) {
                return exact.get();
            }
        }
        return new Call(Call.Op.CAST, List.of(arg), to, nullable);
    }

    /** {@code e} as a value of {@code type}: itself when it already is one, else converted (a literal folded when exact). */
    private static Expr to(Expr e, DataType type) {
        if (fits(e.type(), type)) {
            return e;
        }
        return cast(e, type, e.nullable());
    }

    /**
     * {@code l} as a literal of {@code type}'s representation, when it converts without rounding (to
     * a DOUBLE: the nearest double, which is what converting at run time gives for any value under
     * 2^53 in scaled units); NULL converts always.
     */
    private static Optional<Literal> exactly(Literal l, DataType type) {
        if (l.value() == null) {
            return Optional.of(new Literal(null, type));
        }
        if (fits(l.type(), type)) {
            return Optional.of(new Literal(l.value(), type));
        }
        if (!isNumeric(l.type()) || !isNumeric(type)) {
            return Optional.empty();
        }
        if (l.value() instanceof Double d && !Double.isFinite(d)) {
            return Optional.empty();
        }
        BigDecimal v = l.value() instanceof Double d ? BigDecimal.valueOf(d) : BigDecimal.valueOf((Long) l.value(), l.type().scale());
        if (isDouble(type)) {
            return Optional.of(new Literal(v.doubleValue(), type));
        }
        try {
            long scaled = v.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue().longValueExact();
            if (type.kind() == DataType.Kind.INTEGER && scaled != (int) scaled) {
                return Optional.empty();
            }
            return Optional.of(new Literal(scaled, type));
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** The type a binary numeric operation computes in: DOUBLE if anything is, else exact at the operands' larger scale. */
    private static DataType commonRepresentation(DataType a, DataType b, DataType result) {
        if (isDouble(a) || isDouble(b) || isDouble(result)) {
            return DataType.DOUBLE;
        }
        return exactAtScale(Math.max(a.scale(), b.scale()));
    }

    private static DataType exactAtScale(int scale) {
        return scale == 0 ? DataType.BIGINT : DataType.decimal(18, scale);
    }

    /** Whether every value of {@code from} is, unchanged, a value of {@code to}. */
    private static boolean fits(DataType from, DataType to) {
        if (from.isExactNumeric() && to.isExactNumeric()) {
            return from.scale() == to.scale() && (to.kind() != DataType.Kind.INTEGER || from.kind() == DataType.Kind.INTEGER);
        }
        return from.kind() == to.kind();
    }

    private static boolean sameRepresentation(DataType a, DataType b) {
        return a.isExactNumeric() && b.isExactNumeric() ? a.scale() == b.scale() : a.kind() == b.kind();
    }

    private static boolean isNull(Expr e) {
        return e instanceof Literal l && l.value() == null;
    }

    private static DataType requireExact(DataType t, Call c) {
        if (!t.isExactNumeric()) {
            throw new IllegalArgumentException(c.op() + " of " + t + " is not numeric: " + c);
        }
        return t;
    }

    private static boolean notInteger(DataType t) {
        return t.kind() != DataType.Kind.INTEGER;
    }

    private static boolean isDouble(DataType t) {
        return t.kind() == DataType.Kind.DOUBLE;
    }

    private static boolean isNumeric(DataType t) {
        return t.isExactNumeric() || isDouble(t);
    }
}
