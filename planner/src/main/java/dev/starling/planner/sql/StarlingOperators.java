package dev.starling.planner.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * The functions SQL may call: standard SQL, PostgreSQL's extras (such as {@code SUBSTR}) and
 * {@code DATE(string)}, as Presto and DuckDB accept it, which converts to a CAST.
 */
public final class StarlingOperators {
    private StarlingOperators() {
    }

    public static final SqlFunction DATE = new SqlFunction("DATE", SqlKind.OTHER_FUNCTION, ReturnTypes.DATE_NULLABLE,
            null, OperandTypes.CHARACTER, SqlFunctionCategory.TIMEDATE);

    public static SqlOperatorTable operatorTable() {
        return SqlOperatorTables.chain(SqlOperatorTables.of(DATE),
                SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.STANDARD, SqlLibrary.POSTGRESQL));
    }

    public static SqlRexConvertletTable convertletTable() {
        return new SqlRexConvertletTable() {
            @Override
            public SqlRexConvertlet get(SqlCall call) {
                if (call.getOperator() == DATE) {
                    return (cx, c) -> {
                        var rex = cx.getRexBuilder();
                        var arg = cx.convertExpression(c.operand(0));
                        var type = rex.getTypeFactory().createTypeWithNullability(
                                rex.getTypeFactory().createSqlType(SqlTypeName.DATE), arg.getType().isNullable());
                        return rex.makeCast(type, arg);
                    };
                }
                if (call.getKind() == SqlKind.EQUALS || call.getKind() == SqlKind.NOT_EQUALS) {
                    return StarlingOperators::equality;
                }
                return StandardConvertletTable.INSTANCE.get(call);
            }
        };
    }

    /**
     * = and <> of two exact numerics keep their operands' types. Calcite would cast both to their
     * least restrictive type, a DECIMAL capped at precision 18 that can drop fractional digits
     * ({@code b = 1.5}, b BIGINT, would become {@code CAST(b AS DECIMAL(18,0)) = 2}); the executor
     * compares numerics by value across types. A row equality {@code (a, b) = (x, y)} is the
     * conjunction of its fields' equalities, each converted here (see {@link StarlingTypeCoercion}).
     */
    private static RexNode equality(SqlRexContext cx, SqlCall call) {
        if (call.getKind() == SqlKind.EQUALS && call.operand(0).getKind() == SqlKind.ROW
                && call.operand(1).getKind() == SqlKind.ROW) {
            SqlCall left = call.operand(0);
            SqlCall right = call.operand(1);
            if (left.operandCount() == right.operandCount() && exactNumerics(cx, left) && exactNumerics(cx, right)) {
                List<RexNode> terms = new ArrayList<>();
                for (int i = 0; i < left.operandCount(); i++) {
                    terms.add(cx.convertExpression(SqlStdOperatorTable.EQUALS.createCall(call.getParserPosition(),
                            left.operand(i), right.operand(i))));
                }
                return RexUtil.composeConjunction(cx.getRexBuilder(), terms);
            }
        }
        if (call.operand(0).getKind() == SqlKind.ROW || !exactNumeric(cx, call.operand(0))
                || !exactNumeric(cx, call.operand(1))) {
            return StandardConvertletTable.INSTANCE.convertCall(cx, call);
        }
        return cx.getRexBuilder().makeCall(call.getParserPosition(), call.getOperator(),
                cx.convertExpression(call.operand(0)), cx.convertExpression(call.operand(1)));
    }

    /** Whether every field of row {@code row} is an exact numeric (then the validator left the row's types alone). */
    private static boolean exactNumerics(SqlRexContext cx, SqlCall row) {
        return row.getOperandList().stream().allMatch(field -> exactNumeric(cx, field));
    }

    private static boolean exactNumeric(SqlRexContext cx, SqlNode node) {
        var type = cx.getValidator().getValidatedNodeTypeIfKnown(node);
        return type != null && SqlTypeUtil.isExactNumeric(type);
    }
}
