package dev.starling.difftest;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Result values of either engine in one representation, so they can be compared: NULL, exact
 * numbers as {@link BigDecimal} (every integer width, DECIMAL, DuckDB's HUGEINT), approximate
 * numbers as {@link Double}, {@link String}, {@link LocalDate} and {@link Boolean}. Starling has no
 * TIMESTAMP; DuckDB's DATE + INTERVAL gives one at midnight, which is that date.
 */
public final class Values {
    /** Doubles agree when within this relative difference, or this absolute difference near zero. */
    static final double TOLERANCE = 1e-9;

    private Values() {
    }

    public static Object normalize(Object value) {
        return switch (value) {
            case null -> null;
            case BigDecimal d -> d;
            case Byte b -> BigDecimal.valueOf(b);
            case Short s -> BigDecimal.valueOf(s);
            case Integer i -> BigDecimal.valueOf(i);
            case Long l -> BigDecimal.valueOf(l);
            case BigInteger i -> new BigDecimal(i);
            case Float f -> f.doubleValue();
            case Double d -> d;
            case String s -> s;
            case LocalDate d -> d;
            case java.sql.Date d -> d.toLocalDate();
            case LocalDateTime t when t.toLocalTime().equals(LocalTime.MIDNIGHT) -> t.toLocalDate();
            case Boolean b -> b;
            default -> throw new IllegalArgumentException("unexpected result value " + value + " of type "
                    + value.getClass().getName());
        };
    }

    /**
     * Whether two normalized values are the same answer: exact numbers, strings, dates and booleans
     * exactly; a double against any number within {@link #TOLERANCE}.
     */
    public static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return close(x.doubleValue(), y.doubleValue());
        }
        return a.equals(b);
    }

    private static boolean close(double x, double y) {
        if (Double.compare(x, y) == 0) {
            return true; // also equal infinities and NaN
        }
        double diff = Math.abs(x - y);
        return diff <= TOLERANCE * Math.max(Math.abs(x), Math.abs(y)) || diff <= TOLERANCE;
    }

    /** A total order over normalized values (NULL first, then by kind), used to sort rows into multisets. */
    public static int compare(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        int byKind = Integer.compare(kindRank(a), kindRank(b));
        if (byKind != 0) {
            return byKind;
        }
        return switch (a) {
            case BigDecimal x when b instanceof BigDecimal y -> x.compareTo(y);
            case Number x -> Double.compare(x.doubleValue(), ((Number) b).doubleValue());
            case String x -> x.compareTo((String) b);
            case LocalDate x -> x.compareTo((LocalDate) b);
            case Boolean x -> x.compareTo((Boolean) b);
            default -> throw new IllegalArgumentException("not a normalized value: " + a);
        };
    }

    private static int kindRank(Object v) {
        return switch (v) {
            case Boolean b -> 0;
            case Number n -> 1;
            case LocalDate d -> 2;
            case String s -> 3;
            default -> throw new IllegalArgumentException("not a normalized value: " + v);
        };
    }

    /** How a value is shown in a difference report: strings quoted, so '' and NULL stay apart. */
    public static String render(Object v) {
        return switch (v) {
            case null -> "NULL";
            case String s -> "'" + s.replace("'", "''") + "'";
            case BigDecimal d -> d.toPlainString();
            default -> v.toString();
        };
    }
}
