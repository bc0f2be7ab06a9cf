package dev.starling.planner.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
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
                return StandardConvertletTable.INSTANCE.get(call);
            }
        };
    }
}
