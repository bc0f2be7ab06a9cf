package dev.starling.exec.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A SQL LIKE pattern ({@code %}, {@code _}, optional escape character) compiled once to a matcher.
 * Patterns without {@code _} match by searching their literal pieces left to right with
 * {@link String#indexOf}; the others go through a regular expression.
 */
final class LikePattern {
    private LikePattern() { }

    static Predicate<String> compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new IllegalArgumentException("LIKE escape must be one character, got '" + escape + "'");
        }
        char esc = escape == null ? 0 : escape.charAt(0);
        boolean anyUnderscore = false;
        List<String> pieces = new ArrayList<>();
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
                anyUnderscore |= c == '_';
                regex.append(Pattern.quote(literal.toString())).append(c == '%' ? ".*" : ".");
                pieces.add(literal.toString());
                literal.setLength(0);
            } else {
                literal.append(c);
            }
        }
        pieces.add(literal.toString());
        if (!anyUnderscore) {
            return pieces.size() == 1 ? pieces.get(0)::equals : new PercentMatcher(pieces.toArray(String[]::new));
        }
        regex.append(Pattern.quote(literal.toString()));
        Pattern p = Pattern.compile(regex.toString(), Pattern.DOTALL);
        return s -> p.matcher(s).matches();
    }

    /** {@code pieces[0] % pieces[1] % ... % pieces[k]}: the first anchored at the start, the last at the end. */
    private record PercentMatcher(String[] pieces) implements Predicate<String> {
        @Override
        public boolean test(String s) {
            String first = pieces[0];
            String last = pieces[pieces.length - 1];
            if (s.length() < first.length() + last.length() || !s.startsWith(first) || !s.endsWith(last)) {
                return false;
            }
            int from = first.length();
            int end = s.length() - last.length();
            for (int i = 1; i < pieces.length - 1; i++) {
                int at = s.indexOf(pieces[i], from);
                if (at < 0 || at + pieces[i].length() > end) {
                    return false;
                }
                from = at + pieces[i].length();
            }
            return true;
        }
    }
}
