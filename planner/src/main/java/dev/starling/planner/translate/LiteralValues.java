package dev.starling.planner.translate;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.calcite.rex.RexLiteral;

/** Calcite literals as values in the storage conventions (DECIMAL scaled, DATE in days). */
public final class LiteralValues {
    private LiteralValues() {
    }

    /** The value of {@code literal} as a value of {@code type} (the literal's own type, mapped). */
    public static Object value(RexLiteral literal, DataType type) {
        if (literal.isNull()) {
            return null;
        }
        return switch (type.kind()) {
            case INTEGER, BIGINT -> exact(literal).setScale(0, RoundingMode.HALF_UP).longValueExact();
            case DECIMAL -> exact(literal).setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue().longValueExact();
            case DOUBLE -> literal.getValueAs(Double.class);
            case DATE -> literal.getValueAs(Integer.class).longValue();
            case BOOLEAN -> literal.getValueAs(Boolean.class);
            case VARCHAR -> literal.getValueAs(String.class);
        };
    }

    private static BigDecimal exact(RexLiteral literal) {
        BigDecimal v = literal.getValueAs(BigDecimal.class);
        if (v == null) {
            throw new StarlingSqlException("literal " + literal + " is not a number");
        }
        return v;
    }

    /** Zero in {@code type}'s representation. */
    public static Object zero(DataType type) {
        return type.kind() == DataType.Kind.DOUBLE ? (Object) 0.0 : (Object) 0L;
    }
}
