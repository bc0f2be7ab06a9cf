package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * Puts parameter values into a statement's text in place of its {@code ?} markers, as typed SQL
 * literals ({@code CAST('12.50' AS DECIMAL(15,2))}), so the statement then plans and runs as if
 * written with them. Markers inside string literals, quoted identifiers and comments are text.
 */
public final class ParameterBinder {
    private ParameterBinder() { }

    /**
     * The {@code ?} markers of {@code sql}, as tokens. Text the tokenizer cannot read has none: the
     * query's own parser then reports what is wrong with it.
     */
    private static List<Tokens.Token> markerTokens(List<Tokens.Token> tokens) {
        return tokens.stream().filter(t -> t.kind() == Tokens.Kind.SYMBOL && t.text().equals("?")).toList();
    }

    private static List<Tokens.Token> tokens(String sql) {
        try {
            return new Tokens(sql).all();
        } catch (StarlingSqlException unreadable) {
            return List.of();
        }
    }

    /** The offsets of the {@code ?} markers of {@code sql}. */
    public static int[] markers(String sql) {
        return markerTokens(tokens(sql)).stream().mapToInt(Tokens.Token::offset).toArray();
    }

    /**
     * For each marker, its position in a VALUES row when it stands there alone as a value
     * ({@code VALUES (?, ?), (?, ?)}), else -1.
     */
    public static int[] valuesPositions(String sql) {
        List<Tokens.Token> tokens = tokens(sql);
        int[] position = new int[markerTokens(tokens).size()];
        java.util.Arrays.fill(position, -1);
        int start = 0;
        while (start < tokens.size() && !tokens.get(start).is("values")) {
            start++;
        }
        int depth = 0;
        int element = 0;
        int p = 0;
        for (int i = start + 1; i < tokens.size(); i++) {
            String text = tokens.get(i).kind() == Tokens.Kind.SYMBOL ? tokens.get(i).text() : "";
            switch (text) {
                case "(" -> {
                    depth++;
                    element = depth == 1 ? 0 : element;
                }
                case ")" -> depth--;
                case "," -> element += depth == 1 ? 1 : 0;
                case "?" -> {
                    boolean alone = depth == 1 && isSymbol(tokens.get(i - 1), "(", ",")
                            && isSymbol(tokens.get(i + 1), ",", ")");
                    position[p] = alone ? element : -1;
                }
                default -> { }
            }
            p += text.equals("?") ? 1 : 0;
        }
        return position;
    }

    private static boolean isSymbol(Tokens.Token t, String a, String b) {
        return t.kind() == Tokens.Kind.SYMBOL && (t.text().equals(a) || t.text().equals(b));
    }

    public static String bind(String sql, List<DataType> types, List<Object> values) {
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

    /** A bound value as SQL text writes it (a date as yyyy-mm-dd, a decimal without exponent); null for NULL. */
    public static String text(Object value) {
        return switch (value) {
            case null -> null;
            case BigDecimal d -> d.toPlainString();
            case LocalDate d -> d.toString();
            case java.sql.Date d -> d.toLocalDate().toString();
            default -> value.toString();
        };
    }

    private static String literal(DataType type, Object value) {
        if (value == null) {
            return "CAST(NULL AS " + type + ")";
        }
        String quoted = "'" + text(value).replace("'", "''") + "'";
        return type.kind() == DataType.Kind.VARCHAR ? quoted : "CAST(" + quoted + " AS " + type + ")";
    }
}
