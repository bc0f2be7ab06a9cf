package dev.starling.planner.type;

import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeMappingRule;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's type factory over {@link StarlingTypeSystem}, except for the common type of exact
 * numerics that do not fit one DECIMAL of at most 18 digits (a BIGINT's 19 whole digits beside a
 * DECIMAL(15,2), in a CASE, COALESCE, IN list or UNION): Calcite keeps the whole digits and drops
 * the fraction, DECIMAL(18,0), so 0.08 became 0. Starling keeps the fraction, DECIMAL(18,2): a
 * value with more whole digits than remain fails its cast with an overflow error instead of
 * silently losing its cents. DuckDB, with 38 digits, answers DECIMAL(21,2); the values agree
 * wherever Starling answers.
 */
public final class StarlingTypeFactory extends JavaTypeFactoryImpl {
    public StarlingTypeFactory() {
        super(StarlingTypeSystem.INSTANCE);
    }

    @Override
    public @Nullable RelDataType leastRestrictive(List<RelDataType> types, SqlTypeMappingRule mappingRule) {
        RelDataType common = super.leastRestrictive(types, mappingRule);
        if (common == null || common.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return common;
        }
        int scale = 0;
        for (RelDataType type : types) {
            if (SqlTypeUtil.isExactNumeric(type)) {
                scale = Math.max(scale, type.getScale());
            }
        }
        if (common.getScale() >= scale) {
            return common;
        }
        RelDataType kept = createSqlType(SqlTypeName.DECIMAL, StarlingTypeSystem.MAX_DECIMAL_PRECISION, scale);
        return createTypeWithNullability(kept, common.isNullable());
    }
}
