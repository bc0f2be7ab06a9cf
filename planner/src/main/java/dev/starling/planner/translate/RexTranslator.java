package dev.starling.planner.translate;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.Call.Op;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.Field;
import dev.starling.planner.type.TypeMapping;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/** Translates a Calcite row expression into an exec {@link Expr} over a node's columns. */
final class RexTranslator {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final RexBuilder rexBuilder;
    private final int[] columns;
    private final List<Field> fields;

    /** Field i of the expression's input is column {@code columns[i]} of a row with {@code fields}. */
    RexTranslator(RexBuilder rexBuilder, int[] columns, List<Field> fields) {
        this.rexBuilder = rexBuilder;
        this.columns = columns;
        this.fields = fields;
    }

    Expr translate(RexNode rex) {
        return switch (rex) {
            case RexInputRef ref -> column(ref.getIndex());
            case RexLiteral literal -> literal(literal);
            case RexCall call -> call(call);
            default -> throw StarlingSqlException.unsupported("expression " + rex + " (" + rex.getKind() + ")");
        };
    }

    private ColumnRef column(int field) {
        int c = columns[field];
        Field f = fields.get(c);
        return new ColumnRef(c, f.type(), f.nullable());
    }

    private static Literal literal(RexLiteral literal) {
        if (literal.getType().getSqlTypeName() == SqlTypeName.NULL) {
            return new Literal(null, DataType.INTEGER);
        }
        DataType type = TypeMapping.toStarling(literal.getType());
        return new Literal(LiteralValues.value(literal, type), type);
    }

    private Expr call(RexCall call) {
        DataType type = resultType(call);
        boolean nullable = call.getType().isNullable();
        return switch (call.getKind()) {
            case SEARCH -> translate(RexUtil.expandSearch(rexBuilder, null, call));
            case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> translate(RelOptUtil.isDistinctFrom(rexBuilder,
                    call.operands.get(0), call.operands.get(1), call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM));
            case PLUS -> plus(call, type, nullable);
            case MINUS -> minus(call, type, nullable);
            case TIMES -> op(Op.MULTIPLY, call, type, nullable);
            case DIVIDE -> op(Op.DIVIDE, call, type, nullable);
            case MOD -> op(Op.MOD, call, type, nullable);
            case MINUS_PREFIX -> op(Op.NEGATE, call, type, nullable);
            case PLUS_PREFIX -> translate(call.operands.get(0));
            case EQUALS -> op(Op.EQ, call, type, nullable);
            case NOT_EQUALS -> op(Op.NE, call, type, nullable);
            case LESS_THAN -> op(Op.LT, call, type, nullable);
            case LESS_THAN_OR_EQUAL -> op(Op.LE, call, type, nullable);
            case GREATER_THAN -> op(Op.GT, call, type, nullable);
            case GREATER_THAN_OR_EQUAL -> op(Op.GE, call, type, nullable);
            case AND -> op(Op.AND, call, type, nullable);
            case OR -> or(call, type, nullable);
            case NOT -> op(Op.NOT, call, type, nullable);
            case IS_NULL -> op(Op.IS_NULL, call, type, nullable);
            case IS_NOT_NULL -> op(Op.IS_NOT_NULL, call, type, nullable);
            case IS_TRUE -> op(Op.IS_TRUE, call, type, nullable);
            case IS_FALSE -> op(Op.IS_FALSE, call, type, nullable);
            case IS_NOT_TRUE -> op(Op.IS_NOT_TRUE, call, type, nullable);
            case IS_NOT_FALSE -> op(Op.IS_NOT_FALSE, call, type, nullable);
            case CASE -> op(Op.CASE, call, type, nullable);
            case COALESCE -> op(Op.COALESCE, call, type, nullable);
            case LIKE -> like(call, type, nullable);
            case EXTRACT -> extract(call, type, nullable);
            case CAST -> cast(call, type, nullable);
            case TRIM -> trim(call, type, nullable);
            default -> function(call, type, nullable);
        };
    }

    private static DataType resultType(RexCall call) {
        // Symbols (EXTRACT's unit, TRIM's flag) and intervals are operands, never results Starling stores.
        SqlTypeName t = call.getType().getSqlTypeName();
        return t == SqlTypeName.SYMBOL || SqlTypeName.INTERVAL_TYPES.contains(t)
                ? DataType.BIGINT : TypeMapping.toStarling(call.getType());
    }

    private Call op(Op op, RexCall call, DataType type, boolean nullable) {
        return new Call(op, args(call.operands), type, nullable);
    }

    private List<Expr> args(List<RexNode> operands) {
        List<Expr> out = new ArrayList<>(operands.size());
        for (RexNode o : operands) {
            out.add(translate(o));
        }
        return out;
    }

    private Expr plus(RexCall call, DataType type, boolean nullable) {
        RexNode a = call.operands.get(0);
        RexNode b = call.operands.get(1);
        if (isInterval(b)) {
            return dateAdd(a, b, false, type, nullable);
        }
        if (isInterval(a)) {
            return dateAdd(b, a, false, type, nullable);
        }
        return op(Op.ADD, call, type, nullable);
    }

    private Expr minus(RexCall call, DataType type, boolean nullable) {
        RexNode a = call.operands.get(0);
        RexNode b = call.operands.get(1);
        if (isInterval(b)) {
            return dateAdd(a, b, true, type, nullable);
        }
        if (a.getType().getSqlTypeName() == SqlTypeName.DATE) {
            throw StarlingSqlException.unsupported("subtraction of dates (" + call + ")");
        }
        return op(Op.SUBTRACT, call, type, nullable);
    }

    private static boolean isInterval(RexNode rex) {
        return SqlTypeName.INTERVAL_TYPES.contains(rex.getType().getSqlTypeName());
    }

    /** DATE ± INTERVAL: Calcite holds a year-month interval in months and a day-time one in milliseconds. */
    private Expr dateAdd(RexNode date, RexNode interval, boolean subtract, DataType type, boolean nullable) {
        if (!(interval instanceof RexLiteral literal) || literal.isNull()) {
            throw StarlingSqlException.unsupported("date arithmetic with a non-constant interval (" + interval + ")");
        }
        if (date.getType().getSqlTypeName() != SqlTypeName.DATE) {
            throw StarlingSqlException.unsupported("interval arithmetic on " + date.getType());
        }
        long amount = literal.getValueAs(Long.class);
        Op op;
        if (literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
            op = Op.DATE_ADD_MONTHS;
        } else {
            if (amount % MILLIS_PER_DAY != 0) {
                throw StarlingSqlException.unsupported("interval of hours, minutes or seconds on a DATE (" + interval + ")");
            }
            op = Op.DATE_ADD_DAYS;
            amount /= MILLIS_PER_DAY;
        }
        Literal n = new Literal(subtract ? -amount : amount, DataType.BIGINT);
        return new Call(op, List.of(translate(date), n), type, nullable);
    }

    /** A disjunction of equalities of one expression with literals is an IN list. */
    private Expr or(RexCall call, DataType type, boolean nullable) {
        List<Expr> args = args(call.operands);
        Expr subject = null;
        List<Expr> values = new ArrayList<>();
        for (Expr a : args) {
            if (a instanceof Call c && c.op() == Op.EQ && c.args().get(1) instanceof Literal lit
                    && (subject == null || subject.equals(c.args().get(0)))) {
                subject = c.args().get(0);
                values.add(lit);
            } else {
                return new Call(Op.OR, args, type, nullable);
            }
        }
        List<Expr> in = new ArrayList<>();
        in.add(subject);
        in.addAll(values);
        return new Call(Op.IN, in, type, nullable);
    }

    private Expr like(RexCall call, DataType type, boolean nullable) {
        SqlLikeOperator like = (SqlLikeOperator) call.getOperator();
        if (!like.isCaseSensitive()) {
            throw StarlingSqlException.unsupported("ILIKE");
        }
        Expr e = new Call(Op.LIKE, args(call.operands), type, nullable);
        return like.isNegated() ? new Call(Op.NOT, List.of(e), type, nullable) : e;
    }

    private Expr extract(RexCall call, DataType type, boolean nullable) {
        TimeUnitRange unit = ((RexLiteral) call.operands.get(0)).getValueAs(TimeUnitRange.class);
        Op op = switch (unit) {
            case YEAR -> Op.EXTRACT_YEAR;
            case QUARTER -> Op.EXTRACT_QUARTER;
            case MONTH -> Op.EXTRACT_MONTH;
            case DAY -> Op.EXTRACT_DAY;
            default -> throw StarlingSqlException.unsupported("EXTRACT(" + unit + " FROM ...)");
        };
        if (call.operands.get(1).getType().getSqlTypeName() != SqlTypeName.DATE) {
            throw StarlingSqlException.unsupported("EXTRACT from " + call.operands.get(1).getType());
        }
        return new Call(op, List.of(translate(call.operands.get(1))), type, nullable);
    }

    private Expr cast(RexCall call, DataType type, boolean nullable) {
        Expr arg = translate(call.operands.get(0));
        if (arg.type().equals(type) || arg.type().kind() == DataType.Kind.VARCHAR && type.kind() == DataType.Kind.VARCHAR) {
            return arg; // a change of nullability or of string length: nothing to compute
        }
        if (arg instanceof Literal lit && lit.value() == null) {
            return new Literal(null, type);
        }
        return new Call(Op.CAST, List.of(arg), type, nullable);
    }

    private Expr trim(RexCall call, DataType type, boolean nullable) {
        SqlTrimFunction.Flag flag = ((RexLiteral) call.operands.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        RexNode chars = call.operands.get(1);
        if (flag != SqlTrimFunction.Flag.BOTH || !(chars instanceof RexLiteral lit) || !" ".equals(lit.getValueAs(String.class))) {
            throw StarlingSqlException.unsupported("TRIM other than of spaces from both ends (" + call + ")");
        }
        return new Call(Op.TRIM, List.of(translate(call.operands.get(2))), type, nullable);
    }

    private Expr function(RexCall call, DataType type, boolean nullable) {
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        Op op = switch (name) {
            case "SUBSTRING", "SUBSTR" -> Op.SUBSTRING;
            case "UPPER" -> Op.UPPER;
            case "LOWER" -> Op.LOWER;
            case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH" -> Op.CHAR_LENGTH;
            case "||", "CONCAT" -> Op.CONCAT;
            case "ABS" -> Op.ABS;
            default -> throw StarlingSqlException.unsupported("function " + call.getOperator().getName()
                    + " (" + call.getKind() + ")");
        };
        return op(op, call, type, nullable);
    }
}
