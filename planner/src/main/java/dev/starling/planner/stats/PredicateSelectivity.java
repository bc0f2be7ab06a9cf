package dev.starling.planner.stats;

import dev.starling.storage.Column;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.util.OptionalDouble;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.Sarg;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The selectivity of a predicate over one scan's columns from their statistics: equality from the
 * most frequent values and the distinct count, ranges by interpolation between the column's minimum
 * and maximum, conjunctions and disjunctions as if independent. Anything else is Calcite's guess.
 */
final class PredicateSelectivity {
    /** Never estimate a predicate to drop every row: the statistics describe values, not the absence of them. */
    private static final double MIN_SELECTIVITY = 1e-7;

    private final ScanColumns scan;

    PredicateSelectivity(ScanColumns scan) {
        this.scan = scan;
    }

    double of(@Nullable RexNode predicate) {
        if (predicate == null || predicate.isAlwaysTrue()) {
            return 1;
        }
        return Math.max(MIN_SELECTIVITY, Math.min(1, estimate(predicate)));
    }

    private double estimate(RexNode rex) {
        if (!(rex instanceof RexCall call)) {
            return RelMdUtil.guessSelectivity(rex);
        }
        return switch (call.getKind()) {
            case AND -> call.getOperands().stream().mapToDouble(this::of).reduce(1, (a, b) -> a * b);
            case OR -> 1 - call.getOperands().stream().mapToDouble(o -> 1 - of(o)).reduce(1, (a, b) -> a * b);
            case NOT -> 1 - of(call.getOperands().get(0));
            case IS_NULL, IS_NOT_NULL -> nulls(call);
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                    comparison(call);
            case SEARCH -> search(call);
            default -> RelMdUtil.guessSelectivity(rex);
        };
    }

    private double nulls(RexCall call) {
        if (!(call.getOperands().get(0) instanceof RexInputRef ref)) {
            return RelMdUtil.guessSelectivity(call);
        }
        ColumnStats s = scan.column(ref.getIndex()).stats();
        double nullFraction = s.rows() == 0 ? 0 : (double) s.nulls() / s.rows();
        return call.getKind() == SqlKind.IS_NULL ? nullFraction : 1 - nullFraction;
    }

    private double comparison(RexCall call) {
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        SqlKind kind = call.getKind();
        if (a instanceof RexLiteral && b instanceof RexInputRef) {
            RexNode t = a;
            a = b;
            b = t;
            kind = kind.reverse();
        }
        if (!(a instanceof RexInputRef ref) || !(b instanceof RexLiteral literal) || literal.getValue() == null) {
            return RelMdUtil.guessSelectivity(call);
        }
        Column column = scan.column(ref.getIndex());
        Comparable<?> value = literal.getValue();
        if (kind == SqlKind.EQUALS || kind == SqlKind.NOT_EQUALS) {
            double eq = equality(column, value);
            return kind == SqlKind.EQUALS ? eq : 1 - eq;
        }
        OptionalDouble v = stored(column, value);
        if (v.isEmpty()) {
            return RelMdUtil.guessSelectivity(call);
        }
        boolean below = kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL;
        return below ? fraction(column, Double.NEGATIVE_INFINITY, v.getAsDouble())
                : fraction(column, v.getAsDouble(), Double.POSITIVE_INFINITY);
    }

    private double search(RexCall call) {
        if (!(call.getOperands().get(0) instanceof RexInputRef ref)
                || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
            return RelMdUtil.guessSelectivity(call);
        }
        Sarg<?> sarg = literal.getValueAs(Sarg.class);
        if (sarg == null) {
            return RelMdUtil.guessSelectivity(call);
        }
        return sarg(scan.column(ref.getIndex()), sarg);
    }

    private <C extends Comparable<C>> double sarg(Column column, Sarg<C> sarg) {
        double total = 0;
        for (var range : sarg.rangeSet.asRanges()) {
            boolean point = range.hasLowerBound() && range.hasUpperBound()
                    && range.lowerEndpoint().compareTo(range.upperEndpoint()) == 0;
            if (point) {
                total += equality(column, range.lowerEndpoint());
                continue;
            }
            OptionalDouble lo = range.hasLowerBound() ? stored(column, range.lowerEndpoint()) : OptionalDouble.of(Double.NEGATIVE_INFINITY);
            OptionalDouble hi = range.hasUpperBound() ? stored(column, range.upperEndpoint()) : OptionalDouble.of(Double.POSITIVE_INFINITY);
            total += lo.isPresent() && hi.isPresent() ? fraction(column, lo.getAsDouble(), hi.getAsDouble()) : 0.25;
        }
        if (sarg.nullAs == org.apache.calcite.rex.RexUnknownAs.TRUE) {
            ColumnStats s = column.stats();
            total += s.rows() == 0 ? 0 : (double) s.nulls() / s.rows();
        }
        return sarg.isComplementedPoints() ? Math.min(1, total) : total;
    }

    /** The fraction of rows whose value lies between {@code lo} and {@code hi} (stored domain). */
    private static double fraction(Column column, double lo, double hi) {
        ColumnStats s = column.stats();
        if (s.rows() == 0) {
            return 1;
        }
        boolean isDouble = column.physical() == DataType.Physical.FLOAT64;
        double min = isDouble ? s.minDouble() : s.min();
        double max = isDouble ? s.maxDouble() : s.max();
        double nonNull = (double) (s.rows() - s.nulls()) / s.rows();
        double from = Math.max(lo, min);
        double to = Math.min(hi, max);
        if (to < from) {
            return 0;
        }
        double width = max - min;
        if (width <= 0) {
            return nonNull;
        }
        // A range over few distinct values covers at least one of them when it is not empty.
        double perValue = s.distinct() == 0 ? 0 : 1.0 / s.distinct();
        return nonNull * Math.max(perValue, Math.min(1, (to - from) / width));
    }

    /** The fraction of rows equal to a literal value. */
    private double equality(Column column, Comparable<?> value) {
        ColumnStats s = column.stats();
        if (s.rows() == 0 || s.distinct() == 0) {
            return 0;
        }
        OptionalDouble v = column.isDenseCoded() ? OptionalDouble.empty() : stored(column, value);
        long mostFrequentRows = 0;
        for (ColumnStats.ValueCount vc : s.mostFrequent()) {
            if (v.isPresent() && storedBits(column, v.getAsDouble()) == vc.value()) {
                return (double) vc.count() / s.rows();
            }
            mostFrequentRows += vc.count();
        }
        if (v.isPresent() && fraction(column, v.getAsDouble(), v.getAsDouble()) == 0) {
            return 0;
        }
        long others = s.rows() - s.nulls() - (v.isPresent() ? mostFrequentRows : 0);
        long otherValues = s.distinct() - (v.isPresent() ? s.mostFrequent().size() : 0);
        if (otherValues <= 0 || others <= 0) {
            return 0;
        }
        return (double) others / otherValues / s.rows();
    }

    private static long storedBits(Column column, double v) {
        return column.physical() == DataType.Physical.FLOAT64 ? Double.doubleToLongBits(v) : (long) v;
    }

    /** A literal in the column's stored domain (DECIMAL scaled, DATE in days), if it is one that orders like it. */
    private static OptionalDouble stored(Column column, Comparable<?> value) {
        if (column.isDenseCoded()) {
            return OptionalDouble.empty(); // codes order like row numbers, not like key values
        }
        DataType type = column.type();
        return switch (type.kind()) {
            case INTEGER, BIGINT, DOUBLE -> value instanceof BigDecimal d ? OptionalDouble.of(d.doubleValue()) : OptionalDouble.empty();
            case DECIMAL -> value instanceof BigDecimal d ? OptionalDouble.of(d.movePointRight(type.scale()).doubleValue())
                    : OptionalDouble.empty();
            case DATE -> value instanceof DateString d ? OptionalDouble.of(d.getDaysSinceEpoch()) : OptionalDouble.empty();
            default -> OptionalDouble.empty();
        };
    }
}
