package dev.starling.exec.eval;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/** A SQL LIKE pattern ({@code %}, {@code _}, optional escape character) compiled once to a matcher. */
final class LikePattern {
    private LikePattern() { }

    static Predicate<String> compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new IllegalArgumentException("LIKE escape must be one character, got '" + escape + "'");
        }
        char esc = escape == null ? 0 : escape.charAt(0);
        boolean plain = true;
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == esc) {
                if (i + 1 >= pattern.length()) {
                    throw new IllegalArgumentException("LIKE pattern '" + pattern + "' ends with its escape character");
                }
                literal.append(pattern.charAt(++i));
            } else if (c == '%' || c == '_') {
                plain = false;
                regex.append(Pattern.quote(literal.toString())).append(c == '%' ? ".*" : ".");
                literal.setLength(0);
            } else {
                literal.append(c);
            }
        }
        if (plain) {
            String exact = literal.toString();
            return exact::equals;
        }
        regex.append(Pattern.quote(literal.toString()));
        Pattern p = Pattern.compile(regex.toString(), Pattern.DOTALL);
        return s -> p.matcher(s).matches();
    }
}
