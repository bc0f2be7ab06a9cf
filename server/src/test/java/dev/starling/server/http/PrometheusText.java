package dev.starling.server.http;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks text against Prometheus' text exposition format (0.0.4), line by line. */
final class PrometheusText {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"";
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{" + LABEL + "(," + LABEL + ")*,?})? "
            + "(-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?|NaN|[+-]Inf)( -?[0-9]+)?");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP " + NAME + " .*");

    private PrometheusText() { }

    static void check(String text) {
        assertTrue(text.endsWith("\n"), "the text ends with a line feed");
        Set<String> typed = new HashSet<>();
        for (String line : text.split("\n")) {
            Matcher type = TYPE.matcher(line);
            if (type.matches()) {
                typed.add(type.group(1));
            } else if (line.startsWith("#")) {
                assertTrue(HELP.matcher(line).matches(), "not a HELP or TYPE line: " + line);
            } else {
                Matcher sample = SAMPLE.matcher(line);
                if (!sample.matches()) {
                    fail("not a sample line: " + line);
                }
                String name = sample.group(1);
                assertTrue(typed.contains(name) || typed.contains(name.replaceAll("_(bucket|count|sum|total)$", "")),
                        "no TYPE line before " + line);
            }
        }
    }
}
