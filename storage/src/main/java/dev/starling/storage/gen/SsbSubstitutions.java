package dev.starling.storage.gen;

import io.trino.tpch.Distributions;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Random;

/**
 * Other substitution parameters for the Star Schema Benchmark queries, within the ranges the
 * generated data covers: years 1992 to 1998, discounts 0 to 10, quantities 1 to 50, the 5
 * regions, 25 nations and 250 cities of {@link SsbGeography}, and the 5 manufacturers, 25
 * categories and 1000 brands of {@link SsbParts}. Each query's shipped parameters are replaced
 * where they occur; a query's two regions (customer and supplier) stay one, as in the standard
 * queries.
 */
final class SsbSubstitutions {
    private static final Distributions TPCH = Distributions.getDefaultDistributions();

    private final ParameterDraws draw;

    private SsbSubstitutions(ParameterDraws draw) {
        this.draw = draw;
    }

    /** Query {@code name}'s text {@code sql} with parameters drawn from {@code random}. */
    static String apply(String name, String sql, Random random) {
        return new SsbSubstitutions(new ParameterDraws(random)).substitution(name).applyTo(sql);
    }

    private LiteralSubstitution substitution(String name) {
        LiteralSubstitution s = new LiteralSubstitution();
        return switch (name) {
            case "1.1" -> discount(s, "1 and 3").put("d_year = 1993", "d_year = " + year())
                    .put("lo_quantity < 25", "lo_quantity < " + between(20, 30));
            case "1.2" -> quantities(discount(s, "4 and 6"))
                    .put("d_yearmonthnum = 199401", "d_yearmonthnum = " + (year() * 100 + between(1, 12)));
            case "1.3" -> quantities(discount(s, "5 and 7")).put("d_weeknuminyear = 6", "d_weeknuminyear = " + between(1, 52))
                    .put("d_year = 1994", "d_year = " + year());
            case "2.1" -> s.put("'MFGR#12'", quoted(category())).put("'AMERICA'", quoted(region()));
            case "2.2" -> {
                String category = category();
                // two digits each, as the standard range's, so that they compare as strings do
                int first = between(10, 33);
                yield s.put("'MFGR#2221' and 'MFGR#2228'", quoted(category + first) + " and " + quoted(category + (first + 7)))
                        .put("'ASIA'", quoted(region()));
            }
            case "2.3" -> s.put("'MFGR#2239'", quoted(category() + between(1, 40))).put("'EUROPE'", quoted(region()));
            case "3.1" -> years(s).put("'ASIA'", quoted(region()));
            case "3.2" -> years(s).put("'UNITED STATES'", quoted(nation()));
            case "3.3" -> years(cities(s));
            case "3.4" -> cities(s).put("'Dec1997'", quoted(Month.of(between(1, 12)).getDisplayName(TextStyle.SHORT, Locale.ENGLISH)
                    + year()));
            case "4.1" -> manufacturers(s).put("'AMERICA'", quoted(region()));
            case "4.2" -> {
                int year = between(1992, 1997);
                yield manufacturers(s).put("'AMERICA'", quoted(region()))
                        .put("(d_year = 1997 or d_year = 1998)", "(d_year = " + year + " or d_year = " + (year + 1) + ")");
            }
            case "4.3" -> {
                int nation = between(0, TPCH.getNations().size() - 1);
                int year = between(1992, 1997);
                yield s.put("'AMERICA'", quoted(TPCH.getRegions().getValue(TPCH.getNations().getWeight(nation))))
                        .put("'UNITED STATES'", quoted(TPCH.getNations().getValue(nation)))
                        .put("(d_year = 1997 or d_year = 1998)", "(d_year = " + year + " or d_year = " + (year + 1) + ")")
                        .put("'MFGR#14'", quoted(category()));
            }
            default -> throw new IllegalArgumentException("SSB has no query '" + name + "'; its queries are "
                    + SsbQueries.names());
        };
    }

    /** The discounts {@code shipped} ("1 and 3") as another range of three. */
    private LiteralSubstitution discount(LiteralSubstitution s, String shipped) {
        int least = between(0, 8);
        return s.put("lo_discount between " + shipped, "lo_discount between " + least + " and " + (least + 2));
    }

    private LiteralSubstitution quantities(LiteralSubstitution s) {
        int least = between(1, 41);
        return s.put("lo_quantity between 26 and 35", "lo_quantity between " + least + " and " + (least + 9));
    }

    private LiteralSubstitution years(LiteralSubstitution s) {
        int first = between(1992, 1998);
        return s.put("d_year >= 1992 and d_year <= 1997", "d_year >= " + first + " and d_year <= " + between(first, 1998));
    }

    private LiteralSubstitution cities(LiteralSubstitution s) {
        return s.put("'UNITED KI1'", quoted(city())).put("'UNITED KI5'", quoted(city()));
    }

    private LiteralSubstitution manufacturers(LiteralSubstitution s) {
        int first = between(1, 4);
        return s.put("(p_mfgr = 'MFGR#1' or p_mfgr = 'MFGR#2')",
                "(p_mfgr = 'MFGR#" + first + "' or p_mfgr = 'MFGR#" + between(first + 1, 5) + "')");
    }

    private int between(int least, int most) {
        return draw.between(least, most);
    }

    private int year() {
        return between(1992, 1998);
    }

    private String region() {
        return draw.oneOf(TPCH.getRegions().getValues());
    }

    private String nation() {
        return draw.oneOf(TPCH.getNations().getValues());
    }

    private String city() {
        return SsbGeography.cityName(between(0, SsbGeography.CITIES - 1));
    }

    /** A category, MFGR#MC: manufacturer M and category C from 1 to 5. */
    private String category() {
        return "MFGR#" + between(1, 5) + between(1, 5);
    }

    private static String quoted(String value) {
        return ParameterDraws.quoted(value);
    }
}
