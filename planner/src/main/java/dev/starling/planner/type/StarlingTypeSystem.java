package dev.starling.planner.type;

import java.math.RoundingMode;
import org.apache.calcite.rel.type.DelegatingTypeSystem;
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
public final class StarlingTypeSystem extends DelegatingTypeSystem {
    public static final int MAX_DECIMAL_PRECISION = 18;
    private static final Rules RULES = new Rules();
    public static final StarlingTypeSystem INSTANCE = new StarlingTypeSystem();

    private StarlingTypeSystem() {
        super(RULES);
    }

    /**
     * Only Calcite's common type of exact numerics reads this (CASE branches, COALESCE, IN lists,
     * UNION columns): it keeps that many whole digits, then the scale in what is left. At 18, a
     * DECIMAL(15,2) meeting a BIGINT (19 whole digits) became DECIMAL(18,0) and lost its cents
     * ({@code CASE ... THEN l_tax ELSE l_orderkey END} turned 0.08 into 0). With room for both, the
     * common type is DECIMAL(21,2), which the type factory caps at precision 18 with the scale
     * kept: an integer past 16 digits then fails its cast with an overflow error.
     */
    @Override
    @SuppressWarnings("deprecation")
    public int getMaxNumericPrecision() {
        return 2 * MAX_DECIMAL_PRECISION;
    }

    // The arithmetic types by the rules, at precision 18 (the delegate forwards only what is abstract).

    @Override
    public RelDataType deriveDecimalPlusType(RelDataTypeFactory factory, RelDataType a, RelDataType b) {
        return RULES.deriveDecimalPlusType(factory, a, b);
    }

    @Override
    public RelDataType deriveDecimalMultiplyType(RelDataTypeFactory factory, RelDataType a, RelDataType b) {
        return RULES.deriveDecimalMultiplyType(factory, a, b);
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory factory, RelDataType a, RelDataType b) {
        return RULES.deriveDecimalDivideType(factory, a, b);
    }

    @Override
    public RelDataType deriveDecimalModType(RelDataTypeFactory factory, RelDataType a, RelDataType b) {
        return RULES.deriveDecimalModType(factory, a, b);
    }

    /** The rules above but the common type's whole digits (Calcite's own, {@code getMaxNumericPrecision} being final there). */
    private static final class Rules extends RelDataTypeSystemImpl {
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
}
