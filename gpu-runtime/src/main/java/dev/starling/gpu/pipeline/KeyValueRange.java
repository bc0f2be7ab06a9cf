package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import java.time.LocalDate;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The values a group key can take, from {@code min} to min + range - 1, where its expression and
 * the statistics of the columns it reads tell: an integer column, a string column's codes (one per
 * distinct string), the year of a date column (TPC-H's {@code o_year} and {@code l_year}), or an
 * integer column with NULL replaced by a constant (TPC-H Q13's {@code COALESCE(count, 0)}, or the
 * {@code CASE} it stands for). A key that may be NULL has none (its digit would need one more
 * value), nor one whose range passes 2^63 - 1.
 */
record KeyValueRange(long min, long range) {

    /** {@code key}'s range, its column {@code c}'s value statistics being {@code stats.apply(c)}. */
    static Optional<KeyValueRange> of(Expr key, IntFunction<Optional<ColumnStats>> stats) {
        return key.nullable() ? Optional.empty() : bounds(key, stats).filter(r -> r.range() > 0);
    }

    private static Optional<KeyValueRange> bounds(Expr key, IntFunction<Optional<ColumnStats>> stats) {
        return switch (key) {
            case ColumnRef c when c.type().isIntegral() || c.type().kind() == DataType.Kind.VARCHAR -> column(c, stats);
            case Call c when c.op() == Call.Op.EXTRACT_YEAR && c.args().get(0) instanceof ColumnRef date
                    && date.type().kind() == DataType.Kind.DATE -> column(date, stats)
                    .map(days -> between(year(days.min()), year(days.min() + days.range() - 1)));
            case Call c when c.op() == Call.Op.COALESCE && c.args().size() == 2 -> orElse(c.args().get(0), c.args().get(1), stats);
            case Call c when c.op() == Call.Op.CASE && c.args().size() == 3 && c.args().get(0) instanceof Call test
                    && test.op() == Call.Op.IS_NOT_NULL && test.args().get(0).equals(c.args().get(1)) ->
                    orElse(c.args().get(1), c.args().get(2), stats);
            default -> Optional.empty();
        };
    }

    /** The range of integer column {@code value} with its NULL replaced by the integer constant {@code otherwise}. */
    private static Optional<KeyValueRange> orElse(Expr value, Expr otherwise, IntFunction<Optional<ColumnStats>> stats) {
        if (!(value instanceof ColumnRef column && column.type().isIntegral() && otherwise instanceof Literal l
                && l.value() instanceof Number n && l.type().isIntegral())) {
            return Optional.empty();
        }
        long constant = n.longValue();
        return column(column, stats).filter(r -> r.range() > 0)
                .map(r -> between(Math.min(r.min(), constant), Math.max(r.min() + r.range() - 1, constant)));
    }

    private static Optional<KeyValueRange> column(ColumnRef c, IntFunction<Optional<ColumnStats>> stats) {
        return stats.apply(c.index()).filter(s -> s.rows() > s.nulls()).map(s -> between(s.min(), s.max()));
    }

    private static long year(long epochDay) {
        return LocalDate.ofEpochDay(epochDay).getYear();
    }

    private static KeyValueRange between(long min, long max) {
        return new KeyValueRange(min, ColumnStats.valuesBetween(min, max));
    }
}
