package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import java.time.LocalDate;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The values a group key can take, from {@code min} to min + range - 1, where its expression and
 * the statistics of the columns it reads tell: an integer column, a string column's codes (one per
 * distinct string), or the year of a date column (TPC-H's {@code o_year} and {@code l_year}). A key that may be NULL has none (its digit would
 * need one more value), nor one whose range passes 2^63 - 1.
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
            default -> Optional.empty();
        };
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
