package dev.starling.engine;

import dev.starling.planner.sql.StarlingSqlException;
import java.util.regex.Pattern;

/**
 * A statement's text as the parsers take it: without the semicolons (and blanks) that end it, as
 * clients and scripts send them; a text with nothing but blanks, comments and semicolons is an
 * error that says so.
 */
final class StatementText {
    private static final Pattern COMMENTS = Pattern.compile("--[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);

    private StatementText() { }

    static String of(String sql) {
        int end = sql.length();
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
            end--;
        }
        String text = sql.substring(0, end);
        if (COMMENTS.matcher(text).replaceAll("").isBlank()) {
            throw new StarlingSqlException("empty statement: there is nothing to run");
        }
        return text;
    }
}
