package dev.starling.exec;

import dev.starling.exec.plan.Field;
import java.util.List;

/**
 * A whole query result in memory, for the embedded API and tests. Row values: Integer (INTEGER),
 * Long (BIGINT), BigDecimal with the type's scale (DECIMAL), Double, LocalDate (DATE), Boolean,
 * String, or null.
 */
public record QueryResult(List<Field> fields, List<List<Object>> rows) {

    /** The result as an aligned text table: a header, a rule, then one line per row. */
    public String toText() {
        int n = fields.size();
        int[] width = new int[n];
        for (int c = 0; c < n; c++) {
            width[c] = fields.get(c).name().length();
        }
        for (List<Object> row : rows) {
            for (int c = 0; c < n; c++) {
                width[c] = Math.max(width[c], String.valueOf(row.get(c)).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < n; c++) {
            sb.append(c == 0 ? "" : " | ").append(pad(fields.get(c).name(), width[c]));
        }
        sb.append('\n');
        for (int c = 0; c < n; c++) {
            sb.append(c == 0 ? "" : "-+-").append("-".repeat(width[c]));
        }
        sb.append('\n');
        for (List<Object> row : rows) {
            for (int c = 0; c < n; c++) {
                sb.append(c == 0 ? "" : " | ").append(pad(String.valueOf(row.get(c)), width[c]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
