package dev.starling.exec;

import dev.starling.exec.plan.Field;
import java.util.List;

/**
 * A whole query result in memory, for the embedded API and tests. Row values: Integer (INTEGER),
 * Long (BIGINT), BigDecimal with the type's scale (DECIMAL), Double, LocalDate (DATE), Boolean,
 * String, or null.
 */
public record QueryResult(List<Field> fields, List<List<Object>> rows) {
}
