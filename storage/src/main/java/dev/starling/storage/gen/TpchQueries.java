package dev.starling.storage.gen;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 22 TPC-H queries, from the texts shipped in the {@code io.trino.tpch} jar (answers at SF 0.01
 * lie next to them), rewritten into standard SQL that Calcite and DuckDB both accept: Q15's view
 * becomes a WITH clause (Starling runs queries, not DDL), and Presto's {@code decimal '0.06'},
 * {@code date('1994-01-01')} and {@code substr(x, 1, 2)} become {@code 0.06},
 * {@code DATE '1994-01-01'} and {@code substring(x from 1 for 2)}.
 */
public final class TpchQueries {
    public static final int COUNT = 22;

    private static final Pattern VIEW = Pattern.compile(
            "(?is)create\\s+or\\s+replace\\s+view\\s+(\\w+)\\s+as\\s+(.*?);\\s*(.*?);?\\s*$");

    private TpchQueries() { }

    /** The text of query {@code n}, 1 to 22, with the substitution parameters of scale factor 1. */
    public static String query(int n) {
        if (n < 1 || n > COUNT) {
            throw new IllegalArgumentException("TPC-H has queries 1 to " + COUNT + ", not " + n);
        }
        String sql = QueryResources.read("/io/trino/tpch/queries/q" + n + ".sql");
        Matcher view = VIEW.matcher(sql);
        if (view.matches()) {
            sql = "WITH " + view.group(1) + " AS (" + view.group(2) + ")\n" + view.group(3);
        }
        return sql
                .replaceAll("(?i)\\bdecimal\\s+'([^']*)'", "$1")
                .replaceAll("(?i)\\bdate\\('([^']*)'\\)", "DATE '$1'")
                .replaceAll("(?i)\\bsubstr\\(\\s*(\\w+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)", "substring($1 from $2 for $3)");
    }

    /**
     * The text of query {@code n} for data at {@code scaleFactor}: Q11's FRACTION is 0.0001 divided
     * by the scale factor (TPC-H 2.4.11.3), which keeps the share of parts it returns the same at
     * every scale; the shipped text holds scale factor 1's, under which Q11 returns no row at SF 10.
     */
    public static String query(int n, double scaleFactor) {
        String sql = query(n);
        if (n != 11) {
            return sql;
        }
        String fraction = BigDecimal.valueOf(0.0001).divide(BigDecimal.valueOf(scaleFactor), MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
        return sql.replace("* 0.0001", "* " + fraction);
    }

    /**
     * Query {@code n} for data at {@code scaleFactor} with other substitution parameters, drawn
     * within the specification's ranges ({@link TpchSubstitutions}); a seed gives one text.
     */
    public static String variant(int n, double scaleFactor, long seed) {
        return TpchSubstitutions.apply(n, query(n, scaleFactor), new Random(seed * COUNT + n));
    }
}
