package dev.starling.sqllogic;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One row of values written as in SQL, separated by commas: {@code 1, 'it''s', NULL, 2.50,
 * 1999-12-31, true}. Strings are always quoted, so {@code ''} and {@code NULL} stay apart and a
 * string may hold commas or {@code |}; every other value is a bare word.
 */
final class LiteralRow {
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    /** A value as written: NULL, a quoted string (unescaped) or a bare word. */
    private record Token(Kind kind, String text) { }

    private enum Kind { NULL, STRING, BARE }

    private final List<Token> tokens;

    private LiteralRow(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** Reads a row; {@code where} (file and line) prefixes the message of a malformed one. */
    static LiteralRow parse(String text, String where) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (true) {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int end;
            if (i < text.length() && text.charAt(i) == '\'') {
                StringBuilder s = new StringBuilder();
                end = i + 1;
                while (true) {
                    if (end >= text.length()) {
                        throw new IllegalArgumentException(where + ": unterminated string starting at column " + (i + 1));
                    }
                    char c = text.charAt(end++);
                    if (c == '\'') {
                        if (end < text.length() && text.charAt(end) == '\'') {
                            end++;
                        } else {
                            break;
                        }
                    }
                    s.append(c);
                }
                tokens.add(new Token(Kind.STRING, s.toString()));
                while (end < text.length() && Character.isWhitespace(text.charAt(end))) {
                    end++;
                }
                if (end < text.length() && text.charAt(end) != ',') {
                    throw new IllegalArgumentException(where + ": expected ',' after the string at column " + (i + 1));
                }
            } else {
                end = text.indexOf(',', i);
                end = end < 0 ? text.length() : end;
                String word = text.substring(i, end).strip();
                if (word.isEmpty()) {
                    throw new IllegalArgumentException(where + ": empty value at column " + (i + 1)
                            + " (write NULL or '')");
                }
                tokens.add(word.equalsIgnoreCase("NULL") ? new Token(Kind.NULL, null) : new Token(Kind.BARE, word));
            }
            if (end >= text.length()) {
                return new LiteralRow(tokens);
            }
            i = end + 1;
        }
    }

    int size() {
        return tokens.size();
    }

    /**
     * The row as one CSV record for {@link dev.starling.storage.load.LoadFormat#CSV}: NULL as an
     * empty unquoted field, strings quoted, bare words as written (the loader parses them by type).
     */
    String toCsv() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (i > 0) {
                sb.append(',');
            }
            switch (t.kind()) {
                case NULL -> { }
                case STRING -> sb.append('"').append(t.text().replace("\"", "\"\"")).append('"');
                case BARE -> sb.append(t.text());
            }
        }
        return sb.toString();
    }

    /**
     * The row as result values ({@link dev.starling.difftest.Values normalized}): {@code true} and
     * {@code false} are booleans, {@code yyyy-mm-dd} a date, {@code NaN} and {@code [-]Infinity}
     * doubles, any other bare word an exact number.
     */
    List<Object> toValues(String where) {
        Object[] values = new Object[tokens.size()];
        for (int i = 0; i < values.length; i++) {
            Token t = tokens.get(i);
            values[i] = switch (t.kind()) {
                case NULL -> null;
                case STRING -> t.text();
                case BARE -> bareValue(t.text(), where);
            };
        }
        return Arrays.asList(values);
    }

    private static Object bareValue(String word, String where) {
        switch (word.toLowerCase(Locale.ROOT)) {
            case "true", "false" -> {
                return Boolean.valueOf(word.toLowerCase(Locale.ROOT));
            }
            case "nan" -> {
                return Double.NaN;
            }
            case "infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> { }
        }
        try {
            return DATE.matcher(word).matches() ? LocalDate.parse(word) : new BigDecimal(word);
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException(where + ": '" + word + "' is not a number, date, boolean or NULL "
                    + "(quote strings: 'text')");
        }
    }
}
