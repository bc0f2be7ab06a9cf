package dev.starling.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL text (a console's lines, a script, a command line's statements) cut into statements at each
 * ';' that is outside quotes ('...', "...") and comments (-- to the end of the line, /* ... *&#47;);
 * {@code open} when text other than blanks and comments follows the last such ';', or a quote or
 * comment is still open: the input goes on.
 */
public record Statements(List<String> complete, boolean open) {

    public static Statements of(String text) {
        List<String> complete = new ArrayList<>();
        int start = 0;
        boolean significant = false;
        char quote = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '-' && next == '-') {
                int end = text.indexOf('\n', i);
                i = end < 0 ? text.length() : end;
                continue;
            } else if (c == '/' && next == '*') {
                int end = text.indexOf("*/", i + 2);
                if (end < 0) {
                    return new Statements(complete, true);
                }
                i = end + 2;
                continue;
            } else if (c == '\'' || c == '"') {
                quote = c;
                significant = true;
            } else if (c == ';') {
                if (significant) {
                    complete.add(text.substring(start, i).strip());
                }
                start = i + 1;
                significant = false;
            } else if (!Character.isWhitespace(c)) {
                significant = true;
            }
            i++;
        }
        return new Statements(complete, significant || quote != 0);
    }
}
