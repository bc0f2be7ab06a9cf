package dev.starling.planner.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's implicit coercion, except that two exact numerics that are compared (=, <>, <, <=, >, >=,
 * BETWEEN, IN, = ANY) keep their own types: the executor compares numerics by value across types, and
 * the common DECIMAL Calcite would cast both to is capped at precision 18, which loses fractional
 * digits (SUM(x) > 1500.005 would become SUM(x) > 1500.01).
 */
public final class StarlingTypeCoercion extends TypeCoercionImpl {
    public StarlingTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public @Nullable RelDataType commonTypeForBinaryComparison(@Nullable RelDataType type1, @Nullable RelDataType type2) {
        if (type1 != null && type2 != null && SqlTypeUtil.isExactNumeric(type1) && SqlTypeUtil.isExactNumeric(type2)) {
            return null;
        }
        if (type1 != null && type2 != null && type1.isStruct() && type2.isStruct()
                && type1.getFieldCount() == type2.getFieldCount()) {
            for (int i = 0; i < type1.getFieldCount(); i++) {
                if (commonTypeForBinaryComparison(type1.getFieldList().get(i).getType(),
                        type2.getFieldList().get(i).getType()) == null) {
                    return null; // (a, b) = (x, y) is compared field by field (StarlingOperators)
                }
            }
        }
        return super.commonTypeForBinaryComparison(type1, type2);
    }
}
