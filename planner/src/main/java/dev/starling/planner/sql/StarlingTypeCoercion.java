package dev.starling.planner.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's implicit coercion, except that two exact numerics that are compared (=, <>, <, <=, >, >=,
 * BETWEEN, IN, = ANY) keep their own types: the executor compares numerics by value across types, and
 * the common DECIMAL Calcite would cast both to is capped at precision 18, which loses fractional
 * digits (SUM(x) > 1500.005 would become SUM(x) > 1500.01). Rows of exact numerics are compared
 * field by field ({@link StarlingOperators}); a row with other fields too gets Calcite's common
 * type, field by field.
 */
public final class StarlingTypeCoercion extends TypeCoercionImpl {
    public StarlingTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public @Nullable RelDataType commonTypeForBinaryComparison(@Nullable RelDataType type1, @Nullable RelDataType type2) {
        if (type1 == null || type2 == null) {
            return super.commonTypeForBinaryComparison(type1, type2);
        }
        if (SqlTypeUtil.isExactNumeric(type1) && SqlTypeUtil.isExactNumeric(type2)) {
            return null;
        }
        if (type1.isStruct() && type2.isStruct() && type1.getFieldCount() == type2.getFieldCount()) {
            return allExactNumeric(type1, type2) ? null : commonRow(type1, type2);
        }
        return super.commonTypeForBinaryComparison(type1, type2);
    }

    /**
     * The row type both rows are cast to: per field Calcite's common type for comparing them, else
     * their least restrictive type; null when a field pair has neither. Calcite's own rows would ask this class per
     * field and meet the exact numerics it leaves alone.
     */
    private @Nullable RelDataType commonRow(RelDataType row1, RelDataType row2) {
        List<RelDataType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < row1.getFieldCount(); i++) {
            RelDataTypeField f1 = row1.getFieldList().get(i);
            RelDataType t2 = row2.getFieldList().get(i).getType();
            RelDataType common = super.commonTypeForBinaryComparison(f1.getType(), t2);
            if (common == null) {
                common = factory.leastRestrictive(List.of(f1.getType(), t2));
            }
            if (common == null) {
                return null;
            }
            types.add(common);
            names.add(f1.getName());
        }
        return factory.createStructType(types, names);
    }

    /** Whether each field of row {@code a} and its counterpart of {@code b} are exact numerics. */
    private static boolean allExactNumeric(RelDataType a, RelDataType b) {
        for (int i = 0; i < a.getFieldCount(); i++) {
            if (!SqlTypeUtil.isExactNumeric(a.getFieldList().get(i).getType())
                    || !SqlTypeUtil.isExactNumeric(b.getFieldList().get(i).getType())) {
                return false;
            }
        }
        return true;
    }
}
