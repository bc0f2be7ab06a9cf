package dev.starling.exec.expr;

import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * An operator applied to arguments; {@code type} is the result type, to which numeric results are
 * converted (DECIMAL results rounded half away from zero to the type's scale).
 */
public record Call(Op op, List<Expr> args, DataType type, boolean nullable) implements Expr {

    public enum Op {
        /** Numeric, with operands of any numeric types: DECIMAL operands are rescaled exactly. */
        ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD, NEGATE,
        /** Comparisons of like-typed values (numerics compared by value across types; strings by UTF-16 order). */
        EQ, NE, LT, LE, GT, GE,
        AND, OR, NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE,
        /** args: when1, then1, when2, then2, ..., else (always present; a NULL literal when absent in SQL). */
        CASE,
        /** args: value, pattern literal [, escape literal]. */
        LIKE,
        /** args: value, then literals; SQL semantics (NULL when no match and a NULL in the list). */
        IN,
        /** args: a DATE. */
        EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY,
        /** args: string, start (1-based) [, length]. */
        SUBSTRING,
        /** Converts args[0] to {@code type}. */
        CAST,
        COALESCE, UPPER, LOWER, TRIM, CHAR_LENGTH, CONCAT, ABS,
        /** args: DATE, number of days (INTEGER/BIGINT). */
        DATE_ADD_DAYS,
        /** args: DATE, number of months; the day is clamped to the month's length. */
        DATE_ADD_MONTHS;

        /** For a comparison, the one that holds for (b, a) when this holds for (a, b); any other operator itself. */
        public Op flipped() {
            return switch (this) {
                case LT -> GT;
                case LE -> GE;
                case GT -> LT;
                case GE -> LE;
                default -> this;
            };
        }
    }

    public Call {
        args = List.copyOf(args);
    }

    /** The conjuncts of {@code e}: the arguments of its ANDs, flattened, or {@code e} itself. */
    public static List<Expr> conjuncts(Expr e) {
        List<Expr> out = new ArrayList<>();
        collectConjuncts(e, out);
        return out;
    }

    private static void collectConjuncts(Expr e, List<Expr> out) {
        if (e instanceof Call c && c.op() == Op.AND) {
            c.args().forEach(a -> collectConjuncts(a, out));
        } else {
            out.add(e);
        }
    }

    @Override
    public String toString() {
        return op + args.toString();
    }
}
