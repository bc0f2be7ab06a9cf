package dev.starling.storage.gen;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Replaces literals of a query text with others, each wherever it occurs, all in one pass, so that
 * no replacement is replaced again (TPC-H Q7's two nations may trade places). A literal the text
 * lacks is an error: a changed query text cannot keep a parameter silently.
 */
final class LiteralSubstitution {
    private final Map<String, String> replacements = new LinkedHashMap<>();

    LiteralSubstitution put(String literal, String replacement) {
        replacements.put(literal, replacement);
        return this;
    }

    String applyTo(String sql) {
        for (String literal : replacements.keySet()) {
            if (!sql.contains(literal)) {
                throw new IllegalStateException("the query text has no " + literal + " to substitute:\n" + sql);
            }
        }
        Pattern any = Pattern.compile(replacements.keySet().stream().map(Pattern::quote).collect(Collectors.joining("|")));
        return any.matcher(sql).replaceAll(m -> Matcher.quoteReplacement(replacements.get(m.group())));
    }
}
