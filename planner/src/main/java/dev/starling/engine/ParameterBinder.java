package dev.starling.engine;

import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * Puts parameter values into a statement's text in place of its {@code ?} markers, as typed SQL
 * literals ({@code CAST('12.50' AS DECIMAL(15,2))}), so the statement then plans and runs as if
 * written with them. Markers inside string literals, quoted identifiers and comments are text.
 */
final class ParameterBinder {
    private ParameterBinder() { }

    /** The offsets of the {@code ?} markers of {@code sql}. */
    static int[] markers(String sql) {
        int[] found = new int[sql.length()];
        int n = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = skipQuoted(sql, i, c);
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                while (i < sql.length() && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
            } else {
                if (c == '?') {
                    found[n++] = i;
                }
                i++;
            }
        }
        return java.util.Arrays.copyOf(found, n);
    }

    private static int skipQuoted(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return i;
    }

    /**
     * For each marker, its position in a VALUES row when it stands there alone as a value
     * ({@code VALUES (?, ?), (?, ?)}), else -1.
     */
    static int[] valuesPositions(String sql) {
        int[] at = markers(sql);
        int[] position = new int[at.length];
        java.util.Arrays.fill(position, -1);
        java.util.regex.Matcher values = java.util.regex.Pattern.compile("(?i)\\bvalues\\b").matcher(sql);
        if (!values.find()) {
            return position;
        }
        int depth = 0;
        int element = 0;
        int p = 0;
        String before = "";
        for (int i = values.end(); i < sql.length() && p < at.length; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = skipQuoted(sql, i, c) - 1;
                before = String.valueOf(c);
                continue;
            }
            if (i == at[p]) {
                String after = sql.substring(i + 1).stripLeading();
                boolean alone = depth == 1 && (before.endsWith("(") || before.endsWith(","))
                        && (after.startsWith(",") || after.startsWith(")"));
                position[p++] = alone ? element : -1;
            } else if (c == '(') {
                depth++;
                element = depth == 1 ? 0 : element;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 1) {
                element++;
            }
            if (!Character.isWhitespace(c)) {
                before = String.valueOf(c);
            }
        }
        return position;
    }

    static String bind(String sql, List<DataType> types, List<Object> values) {
        int[] at = markers(sql);
        if (values.size() != at.length) {
            throw new StarlingSqlException("the statement has " + at.length + " parameters but " + values.size()
                    + " values were bound");
        }
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int p = 0; p < at.length; p++) {
            out.append(sql, from, at[p]).append(literal(types.get(p), values.get(p)));
            from = at[p] + 1;
        }
        return out.append(sql.substring(from)).toString();
    }

    private static String literal(DataType type, Object value) {
        if (value == null) {
            return "CAST(NULL AS " + type + ")";
        }
        String text = switch (value) {
            case BigDecimal d -> d.toPlainString();
            case LocalDate d -> d.toString();
            case java.sql.Date d -> d.toLocalDate().toString();
            default -> value.toString();
        };
        String quoted = "'" + text.replace("'", "''") + "'";
        return type.kind() == DataType.Kind.VARCHAR ? quoted : "CAST(" + quoted + " AS " + type + ")";
    }
}
