package dev.starling.planner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The 22 TPC-H query texts shipped in the io.trino.tpch jar. */
final class TpchQueries {
    private static final Pattern VIEW = Pattern.compile(
            "(?is)create\\s+or\\s+replace\\s+view\\s+(\\w+)\\s+as\\s+(.*?);\\s*(.*?);?\\s*$");

    private TpchQueries() {
    }

    /** Query {@code n}; Q15's view becomes a WITH clause, since
     * Starling runs queries, not DDL. */
    static String query(int n) {
        String resource = "/io/trino/tpch/queries/q" + n + ".sql";
        try (InputStream in = TpchQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^--.*$", "").trim();
            Matcher view = VIEW.matcher(sql);
            if (view.matches()) {
                sql = "WITH " + view.group(1) + " AS (" + view.group(2) + ")\n" + view.group(3);
            }
            // VALUE is a reserved word in standard SQL (Q11 uses it as an alias).
            return sql.replaceAll(";\\s*$", "").replaceAll("(?i)\\bvalue\\b", "\"value\"");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
