package dev.starling.planner.sql;

import java.math.BigDecimal;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Integer literals of BIGINT's range that have 19 digits (up to 9223372036854775807 and down to
 * -9223372036854775808): Calcite's validator takes every exact literal for a DECIMAL, whose
 * precision Starling caps at 18 (the unscaled value of a 64-bit decimal), and rejects them as out
 * of range. Before validation each becomes a BIGINT conversion of its digits, which the planner
 * folds back into a BIGINT literal.
 */
public final class WideIntegerLiterals extends SqlShuttle {
    private static final WideIntegerLiterals INSTANCE = new WideIntegerLiterals();
    private static final int DIGITS = 19;

    private WideIntegerLiterals() { }

    /** {@code parsed} with its 19-digit BIGINT literals made conversions. */
    public static SqlNode rewrite(SqlNode parsed) {
        return parsed.accept(INSTANCE);
    }

    @Override
    public SqlNode visit(SqlLiteral literal) {
        if (!(literal instanceof SqlNumericLiteral n) || !n.isExact()) {
            return literal;
        }
        BigDecimal value = n.getValueAs(BigDecimal.class);
        if (value.scale() > 0 || value.precision() != DIGITS || !fitsLong(value)) {
            return literal;
        }
        return SqlStdOperatorTable.CAST.createCall(literal.getParserPosition(),
                SqlLiteral.createCharString(value.toPlainString(), literal.getParserPosition()),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, literal.getParserPosition()),
                        literal.getParserPosition()));
    }

    private static boolean fitsLong(BigDecimal value) {
        return value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 && value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0;
    }
}
