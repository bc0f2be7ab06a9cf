package dev.starling.exec.expr;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An expression as SQL-like text for EXPLAIN: columns by name, dates as {@code DATE '1995-03-15'},
 * decimals at their scale, operators infix, nested operations in parentheses.
 */
public final class ExprText {
    private final List<String> names;

    private ExprText(List<String> names) {
        this.names = names;
    }

    /** {@code e} over input columns named {@code names}. */
    public static String of(Expr e, List<String> names) {
        return new ExprText(names).text(e, false);
    }

    /** A literal's SQL text. */
    private static String literal(Literal l) {
        Object v = l.value();
        if (v == null) {
            return "NULL";
        }
        return switch (l.type().kind()) {
            case DATE -> "DATE '" + LocalDate.ofEpochDay((Long) v) + "'";
            case DECIMAL -> BigDecimal.valueOf((Long) v, l.type().scale()).toPlainString();
            case VARCHAR -> "'" + ((String) v).replace("'", "''") + "'";
            case BOOLEAN -> ((Boolean) v) ? "TRUE" : "FALSE";
            default -> v.toString();
        };
    }

    private String text(Expr e, boolean nested) {
        return switch (e) {
            case ColumnRef c -> c.index() < names.size() ? names.get(c.index()) : "$" + c.index();
            case Literal l -> literal(l);
            case Call c -> {
                String s = call(c);
                yield nested && infix(c.op()) != null ? "(" + s + ")" : s;
            }
        };
    }

    private String call(Call c) {
        List<Expr> a = c.args();
        String infix = infix(c.op());
        if (infix != null) {
            boolean logic = c.op() == Call.Op.AND || c.op() == Call.Op.OR;
            return a.stream().map(x -> text(x, !logic || isLogic(x)))
                    .collect(Collectors.joining(" " + infix + " "));
        }
        return switch (c.op()) {
            case NEGATE -> "-" + text(a.get(0), true);
            case NOT -> "NOT " + text(a.get(0), true);
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE ->
                    text(a.get(0), true) + " " + c.op().name().replace('_', ' ');
            case CASE -> {
                StringBuilder s = new StringBuilder("CASE");
                for (int i = 0; i + 1 < a.size(); i += 2) {
                    s.append(" WHEN ").append(text(a.get(i), false)).append(" THEN ").append(text(a.get(i + 1), false));
                }
                yield s.append(" ELSE ").append(text(a.get(a.size() - 1), false)).append(" END").toString();
            }
            case LIKE -> text(a.get(0), true) + " LIKE " + text(a.get(1), true)
                    + (a.size() > 2 ? " ESCAPE " + text(a.get(2), true) : "");
            case IN -> text(a.get(0), true) + " IN (" + list(a.subList(1, a.size())) + ")";
            case EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY ->
                    "EXTRACT(" + c.op().name().substring("EXTRACT_".length()) + " FROM " + text(a.get(0), false) + ")";
            case SUBSTRING -> "SUBSTRING(" + text(a.get(0), false) + " FROM " + text(a.get(1), false)
                    + (a.size() > 2 ? " FOR " + text(a.get(2), false) : "") + ")";
            case CAST -> "CAST(" + text(a.get(0), false) + " AS " + c.type() + ")";
            case DATE_ADD_DAYS -> text(a.get(0), true) + " + " + interval(a.get(1), "DAY");
            case DATE_ADD_MONTHS -> text(a.get(0), true) + " + " + interval(a.get(1), "MONTH");
            default -> c.op().name() + "(" + list(a) + ")";
        };
    }

    /** {@code INTERVAL '3' MONTH} for a literal count, else {@code INTERVAL (n) MONTH}. */
    private String interval(Expr count, String unit) {
        String n = count instanceof Literal l && l.value() != null ? "'" + l.value() + "'" : "(" + text(count, false) + ")";
        return "INTERVAL " + n + " " + unit;
    }

    private String list(List<Expr> args) {
        return args.stream().map(x -> text(x, false)).collect(Collectors.joining(", "));
    }

    private static boolean isLogic(Expr e) {
        return e instanceof Call c && (c.op() == Call.Op.AND || c.op() == Call.Op.OR);
    }

    private static String infix(Call.Op op) {
        return switch (op) {
            case ADD -> "+";
            case SUBTRACT -> "-";
            case MULTIPLY -> "*";
            case DIVIDE -> "/";
            case MOD -> "%";
            case EQ -> "=";
            case NE -> "<>";
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            case GE -> ">=";
            case AND -> "AND";
            case OR -> "OR";
            default -> null;
        };
    }
}
