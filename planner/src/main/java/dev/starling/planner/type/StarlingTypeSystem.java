package dev.starling.planner.type;

import java.math.RoundingMode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Starling's numeric typing. Decimals live in a 64-bit long, so DECIMAL precision is at most 18.
 * Where standard SQL and DuckDB differ, Starling follows DuckDB so that results compare equal:
 * <ul>
 *   <li>AVG of any numeric is DOUBLE;</li>
 *   <li>division of two exact numerics (DECIMAL or integer) is DOUBLE, not a truncating integer
 *       or a fixed-scale decimal division;</li>
 *   <li>SUM of DECIMAL(p,s) is DECIMAL(18,s) and SUM of an integer is BIGINT, so sums do not
 *       overflow the argument's precision.</li>
 * </ul>
 */
public final class StarlingTypeSystem extends RelDataTypeSystemImpl {
    public static final int MAX_DECIMAL_PRECISION = 18;
    public static final StarlingTypeSystem INSTANCE = new StarlingTypeSystem();

    private StarlingTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getDefaultPrecision(typeName);
    }

    /**
     * How Calcite rounds exact numbers it casts while planning (constant folding): half away from
     * zero, as the executor does at run time and as DuckDB does, not Calcite's default truncation.
     */
    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    /** CASE and UNION branches of CHAR(n) of different lengths give VARCHAR, not blank-padded CHAR, as in DuckDB. */
    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
        RelDataType sum = switch (argumentType.getSqlTypeName()) {
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, argumentType.getScale());
            case TINYINT, SMALLINT, INTEGER, BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            default -> argumentType;
        };
        return factory.createTypeWithNullability(sum, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory factory, RelDataType dividend, RelDataType divisor) {
        if (SqlTypeUtil.isExactNumeric(dividend) && SqlTypeUtil.isExactNumeric(divisor)) {
            return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE),
                    dividend.isNullable() || divisor.isNullable());
        }
        return null;
    }
}
