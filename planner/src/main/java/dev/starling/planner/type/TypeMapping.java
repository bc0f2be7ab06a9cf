package dev.starling.planner.type;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/** Converts between Starling's storage types and Calcite's SQL types. */
public final class TypeMapping {
    private TypeMapping() {
    }

    public static RelDataType toCalcite(RelDataTypeFactory factory, DataType type, boolean nullable) {
        RelDataType t = switch (type.kind()) {
            case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            // CHAR is stored as VARCHAR: values keep no padding.
            case VARCHAR -> type.precision() > 0
                    ? factory.createSqlType(SqlTypeName.VARCHAR, type.precision())
                    : factory.createSqlType(SqlTypeName.VARCHAR);
        };
        return factory.createTypeWithNullability(t, nullable);
    }

    public static DataType toStarling(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case FLOAT, REAL, DOUBLE -> DataType.DOUBLE;
            case DECIMAL -> DataType.decimal(type.getPrecision(), type.getScale());
            case DATE -> DataType.DATE;
            case BOOLEAN -> DataType.BOOLEAN;
            case CHAR, VARCHAR -> DataType.VARCHAR;
            // An untyped NULL (e.g. SELECT NULL) has no values to store; any type holds it.
            case NULL -> DataType.INTEGER;
            default -> throw StarlingSqlException.unsupported("type " + type.getFullTypeString());
        };
    }
}
