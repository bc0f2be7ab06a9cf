package dev.starling.bench.fuzz;

import dev.starling.storage.DataType.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random scalar expressions and predicates over a {@link Scope}'s columns, each well typed, in the
 * SQL that Starling and DuckDB read alike. Left out because the engines define them differently,
 * not because either gets them wrong: integer division (DuckDB's {@code /} gives a double), division
 * of decimals (DuckDB's is a double), and casts from doubles to exact types (rounding rules).
 * Literals come from a column's samples, so comparisons hit rows, and from each type's edges.
 */
final class Expressions {
    private static final List<String> EDGE_INTEGERS = List.of("0", "-1", "1", "2147483647", "-2147483648",
            "9223372036854775807", "-9223372036854775807");
    private static final List<String> EDGE_DECIMALS = List.of("0.00", "0.005", "-0.01", "99999999.99", "1.5");
    private static final List<String> EDGE_DATES = List.of("DATE '1970-01-01'", "DATE '1992-01-01'",
            "DATE '1998-12-31'", "DATE '2100-02-28'");
    private static final List<String> EDGE_STRINGS = List.of("''", "' '", "'O''Reilly'", "'zzzz'", "'A'");

    private final Random random;
    private final Scope scope;

    Expressions(Random random, Scope scope) {
        this.random = random;
        this.scope = scope;
    }

    /** An expression of any kind but BOOLEAN. */
    Sql value(int depth) {
        return switch (random.nextInt(6)) {
            case 0, 1, 2 -> numeric(depth);
            case 3, 4 -> string(depth);
            default -> date(depth);
        };
    }

    /** A numeric column of the scope, or null. */
    private Sql numericColumn() {
        List<Sql> columns = scope.columns(FuzzColumn::numeric);
        return columns.isEmpty() ? null : pick(columns);
    }

    private Sql column(Kind kind) {
        List<Sql> columns = scope.columns(c -> c.type().kind() == kind);
        return columns.isEmpty() ? null : pick(columns);
    }

    Sql numeric(int depth) {
        Sql column = numericColumn();
        if (depth <= 0 || random.nextInt(10) < 4) {
            return column != null ? column : Sql.of("CHAR_LENGTH(" + string(0) + ")", Kind.INTEGER, false);
        }
        return switch (random.nextInt(13)) {
            case 0, 1 -> arithmetic(numeric(depth - 1), random.nextBoolean() ? " + " : " - ", numeric(depth - 1));
            case 2 -> arithmetic(numeric(depth - 1), " * ", Sql.of(pick(List.of("2", "3", "-1", "0.5", "1.10")),
                    Kind.DECIMAL, false));
            case 3 -> unary("-", numeric(depth - 1));
            case 4 -> unary("ABS", numeric(depth - 1));
            case 5 -> caseOf(numeric(depth - 1), numeric(depth - 1), depth);
            case 6 -> {
                Sql x = numeric(depth - 1);
                yield Sql.of("COALESCE(" + x + ", " + literalFor(x) + ")", x.kind(), false);
            }
            case 7 -> {
                Sql x = numeric(depth - 1);
                yield Sql.of("NULLIF(" + x + ", " + literalFor(x) + ")", x.kind(), true);
            }
            case 8 -> {
                Sql d = date(depth - 1);
                String field = pick(List.of("YEAR", "MONTH", "DAY", "QUARTER"));
                yield Sql.of("EXTRACT(" + field + " FROM " + d + ")", Kind.BIGINT, d.nullable());
            }
            case 9 -> {
                Sql s = string(depth - 1);
                yield Sql.of("CHAR_LENGTH(" + s + ")", Kind.INTEGER, s.nullable());
            }
            case 10 -> {
                Sql x = integral(depth - 1);
                yield Sql.of("MOD(" + x + ", " + (2 + random.nextInt(6)) + ")", x.kind(), x.nullable());
            }
            case 11 -> {
                Sql x = numeric(depth - 1);
                yield Sql.of("CAST(" + x + " AS DOUBLE) / " + pick(List.of("2", "3", "7", "0.5")), Kind.DOUBLE,
                        x.nullable());
            }
            default -> {
                Sql x = integral(depth - 1);
                yield Sql.of("CAST(" + x + " AS BIGINT)", Kind.BIGINT, x.nullable());
            }
        };
    }

    private Sql integral(int depth) {
        for (int tries = 0; tries < 8; tries++) {
            Sql x = numeric(depth);
            if (x.integral()) {
                return x;
            }
        }
        Sql s = string(0);
        return Sql.of("CHAR_LENGTH(" + s + ")", Kind.INTEGER, s.nullable());
    }

    Sql string(int depth) {
        Sql column = column(Kind.VARCHAR);
        if (depth <= 0 || random.nextInt(10) < 5) {
            return column != null ? column : Sql.of("'x'", Kind.VARCHAR, false);
        }
        return switch (random.nextInt(7)) {
            case 0, 1 -> {
                Sql s = string(depth - 1);
                yield Sql.of("SUBSTRING(" + s + " FROM " + (1 + random.nextInt(5)) + " FOR " + (1 + random.nextInt(6)) + ")",
                        Kind.VARCHAR, s.nullable());
            }
            case 2 -> unary(random.nextBoolean() ? "UPPER" : "LOWER", string(depth - 1));
            case 3 -> unary("TRIM", string(depth - 1));
            case 4 -> {
                Sql a = string(depth - 1);
                Sql b = string(depth - 1);
                yield Sql.of("(" + a + " || " + b + ")", Kind.VARCHAR, a.nullable() || b.nullable());
            }
            case 5 -> caseOf(string(depth - 1), string(depth - 1), depth);
            default -> {
                Sql s = string(depth - 1);
                yield Sql.of("COALESCE(" + s + ", " + literalFor(s) + ")", Kind.VARCHAR, false);
            }
        };
    }

    Sql date(int depth) {
        Sql column = column(Kind.DATE);
        if (column == null) {
            return Sql.of(pick(EDGE_DATES), Kind.DATE, false);
        }
        if (depth <= 0 || random.nextInt(10) < 6) {
            return column;
        }
        Sql d = date(depth - 1);
        return random.nextBoolean()
                ? Sql.of("(" + d + " + INTERVAL '" + random.nextInt(400) + "' DAY)", Kind.DATE, d.nullable())
                : Sql.of("(" + d + " - INTERVAL '" + random.nextInt(30) + "' MONTH)", Kind.DATE, d.nullable());
    }

    /** A condition: comparisons, ranges, lists, patterns and NULL tests, under NOT, AND and OR. */
    Sql predicate(int depth) {
        int choice = random.nextInt(depth <= 0 ? 7 : 10);
        return switch (choice) {
            case 0, 1, 2 -> {
                Sql x = value(depth - 1);
                yield Sql.of(x + " " + comparison() + " " + literalFor(x), Kind.BOOLEAN, true);
            }
            case 3 -> {
                Sql x = value(depth - 1);
                Sql y = sameKind(x, depth - 1);
                yield Sql.of(x + " " + comparison() + " " + y, Kind.BOOLEAN, true);
            }
            case 4 -> {
                Sql x = value(depth - 1);
                String a = literalFor(x);
                String b = literalFor(x);
                yield Sql.of(x + (random.nextInt(4) == 0 ? " NOT" : "") + " BETWEEN " + a + " AND " + b, Kind.BOOLEAN, true);
            }
            case 5 -> {
                Sql x = value(depth - 1);
                List<String> items = new ArrayList<>();
                for (int i = 0, n = 1 + random.nextInt(5); i < n; i++) {
                    items.add(literalFor(x));
                }
                yield Sql.of(x + (random.nextInt(3) == 0 ? " NOT IN (" : " IN (") + String.join(", ", items) + ")",
                        Kind.BOOLEAN, true);
            }
            case 6 -> random.nextBoolean() ? like(depth) : nullTest(depth);
            case 7 -> Sql.of("NOT (" + predicate(depth - 1) + ")", Kind.BOOLEAN, true);
            default -> Sql.of("(" + predicate(depth - 1) + (choice == 8 ? " AND " : " OR ") + predicate(depth - 1) + ")",
                    Kind.BOOLEAN, true);
        };
    }

    private Sql like(int depth) {
        Sql s = string(depth - 1);
        String sample = unquoted(literalFor(s));
        String pattern = switch (random.nextInt(4)) {
            case 0 -> sample.substring(0, Math.min(sample.length(), 1 + random.nextInt(4))) + "%";
            case 1 -> "%" + sample.substring(Math.max(0, sample.length() - 1 - random.nextInt(4)));
            case 2 -> {
                int from = sample.isEmpty() ? 0 : random.nextInt(sample.length());
                yield "%" + sample.substring(from, Math.min(sample.length(), from + 1 + random.nextInt(4))) + "%";
            }
            default -> sample.isEmpty() ? "_%" : "_" + sample.substring(1) ;
        };
        pattern = pattern.replace("'", "''");
        return Sql.of(s + (random.nextInt(3) == 0 ? " NOT LIKE '" : " LIKE '") + pattern + "'", Kind.BOOLEAN, true);
    }

    private Sql nullTest(int depth) {
        List<Sql> nullable = scope.columns(c -> true).stream().filter(Sql::nullable).toList();
        Sql x = !nullable.isEmpty() && random.nextInt(3) > 0 ? pick(nullable) : value(depth - 1);
        return Sql.of(x + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL"), Kind.BOOLEAN, false);
    }

    /** A literal of {@code x}'s kind: mostly one of its column's samples, else an edge of its type or a NULL. */
    String literalFor(Sql x) {
        int roll = random.nextInt(20);
        if (roll == 0) {
            return "CAST(NULL AS " + switch (x.kind()) {
                case VARCHAR -> "VARCHAR";
                case DATE -> "DATE";
                case DECIMAL -> "DECIMAL(15,2)";
                case DOUBLE -> "DOUBLE";
                default -> "INTEGER";
            } + ")";
        }
        FuzzColumn source = x.column() != null ? x.column() : sampled(x.kind());
        if (roll > 3 && source != null && !source.samples().isEmpty()) {
            return pick(source.samples());
        }
        return switch (x.kind()) {
            case VARCHAR -> pick(EDGE_STRINGS);
            case DATE -> pick(EDGE_DATES);
            case DECIMAL, DOUBLE -> pick(EDGE_DECIMALS);
            default -> pick(EDGE_INTEGERS);
        };
    }

    /**
     * A column of the scope whose samples serve an expression of {@code kind}: of that kind, or for a
     * number, of the same exactness (an integer's literals integers, so that a list never mixes a
     * 19-digit integer with a decimal, whose common type passes Starling's 18 decimal digits).
     */
    private FuzzColumn sampled(Kind kind) {
        boolean integral = kind == Kind.INTEGER || kind == Kind.BIGINT;
        List<Sql> columns = scope.columns(c -> c.type().kind() == kind || (c.numeric()
                && (kind == Kind.DECIMAL || kind == Kind.DOUBLE || integral) && c.type().isIntegral() == integral));
        return columns.isEmpty() ? null : pick(columns).column();
    }

    private Sql sameKind(Sql x, int depth) {
        return switch (x.kind()) {
            case VARCHAR -> string(depth);
            case DATE -> date(depth);
            default -> numeric(depth);
        };
    }

    private Sql caseOf(Sql then, Sql otherwise, int depth) {
        boolean noElse = random.nextInt(4) == 0;
        Kind kind = then.kind() == otherwise.kind() ? then.kind() : widest(then.kind(), otherwise.kind());
        return Sql.of("CASE WHEN " + predicate(depth - 1) + " THEN " + then + (noElse ? "" : " ELSE " + otherwise) + " END",
                kind, noElse || then.nullable() || otherwise.nullable());
    }

    private static Sql arithmetic(Sql a, String op, Sql b) {
        return Sql.of("(" + a + op + b + ")", widest(a.kind(), b.kind()), a.nullable() || b.nullable());
    }

    private static Sql unary(String op, Sql x) {
        return Sql.of(op + "(" + x + ")", x.kind(), x.nullable());
    }

    private static Kind widest(Kind a, Kind b) {
        if (a == Kind.DOUBLE || b == Kind.DOUBLE) {
            return Kind.DOUBLE;
        }
        if (a == Kind.DECIMAL || b == Kind.DECIMAL) {
            return Kind.DECIMAL;
        }
        return a == Kind.BIGINT || b == Kind.BIGINT ? Kind.BIGINT : a;
    }

    private String comparison() {
        return pick(List.of("=", "<>", "<", "<=", ">", ">="));
    }

    private static String unquoted(String literal) {
        return literal.startsWith("'") ? literal.substring(1, literal.length() - 1).replace("''", "'") : literal;
    }

    <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }
}
