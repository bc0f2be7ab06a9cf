package dev.starling.storage.gen;

import io.trino.tpch.Distribution;
import io.trino.tpch.Distributions;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Other substitution parameters for the TPC-H queries, drawn as QGEN draws them: from the ranges
 * of the specification's clause 2.4.x.3 for query x and from the generator's own distributions
 * (nations, regions, segments, ship modes, part types, containers and colors), so that every
 * value names data that exists. Each query's shipped parameters are replaced where they occur.
 */
final class TpchSubstitutions {
    private static final Distributions DISTRIBUTIONS = Distributions.getDefaultDistributions();
    private static final List<String> TYPE_METALS = List.of("TIN", "NICKEL", "BRASS", "STEEL", "COPPER");
    /** TPC-H 2.4.13.3: Q13's WORD1 and WORD2. */
    private static final List<String> WORDS1 = List.of("special", "pending", "unusual", "express");
    private static final List<String> WORDS2 = List.of("packages", "requests", "accounts", "deposits");

    private final ParameterDraws draw;

    private TpchSubstitutions(ParameterDraws draw) {
        this.draw = draw;
    }

    /** Query {@code n}'s text {@code sql} (the shipped parameters) with parameters drawn from {@code random}. */
    static String apply(int n, String sql, Random random) {
        return new TpchSubstitutions(new ParameterDraws(random)).substitution(n).applyTo(sql);
    }

    private LiteralSubstitution substitution(int n) {
        LiteralSubstitution s = new LiteralSubstitution();
        return switch (n) {
            case 1 -> s.put("INTERVAL '90' DAY", "INTERVAL '" + between(60, 120) + "' DAY");
            case 2 -> s.put("p_size = 15", "p_size = " + between(1, 50))
                    .put("'%BRASS'", quoted("%" + oneOf(TYPE_METALS)))
                    .put("'EUROPE'", quoted(oneOf(DISTRIBUTIONS.getRegions())));
            case 3 -> s.put("'BUILDING'", quoted(oneOf(DISTRIBUTIONS.getMarketSegments())))
                    .put("DATE '1995-03-15'", date(LocalDate.of(1995, 3, between(1, 31))));
            case 4 -> s.put("DATE '1993-07-01'", date(firstOfMonth(1993, 1, 58)));
            case 5 -> s.put("'ASIA'", quoted(oneOf(DISTRIBUTIONS.getRegions())))
                    .put("DATE '1994-01-01'", date(newYear()));
            case 6 -> {
                String discount = "0.0" + between(2, 9);
                yield s.put("DATE '1994-01-01'", date(newYear()))
                        .put("0.06 - 0.01 AND 0.06 + 0.01", discount + " - 0.01 AND " + discount + " + 0.01")
                        .put("l_quantity < 24", "l_quantity < " + between(24, 25));
            }
            case 7 -> {
                List<String> nations = draw.distinct(DISTRIBUTIONS.getNations().getValues(), 2);
                yield s.put("'FRANCE'", quoted(nations.get(0))).put("'GERMANY'", quoted(nations.get(1)));
            }
            case 8 -> {
                int nation = between(0, DISTRIBUTIONS.getNations().size() - 1);
                yield s.put("'BRAZIL'", quoted(DISTRIBUTIONS.getNations().getValue(nation)))
                        .put("'AMERICA'", quoted(regionOf(nation)))
                        .put("'ECONOMY ANODIZED STEEL'", quoted(oneOf(DISTRIBUTIONS.getPartTypes())));
            }
            case 9 -> s.put("'%green%'", quoted("%" + oneOf(DISTRIBUTIONS.getPartColors()) + "%"));
            case 10 -> s.put("DATE '1993-10-01'", date(firstOfMonth(1993, 2, 24)));
            case 11 -> s.put("'GERMANY'", quoted(oneOf(DISTRIBUTIONS.getNations())));
            case 12 -> {
                List<String> modes = draw.distinct(DISTRIBUTIONS.getShipModes().getValues(), 2);
                yield s.put("('MAIL', 'SHIP')", "(" + quoted(modes.get(0)) + ", " + quoted(modes.get(1)) + ")")
                        .put("DATE '1994-01-01'", date(newYear()));
            }
            case 13 -> s.put("'%special%requests%'", quoted("%" + oneOf(WORDS1) + "%" + oneOf(WORDS2) + "%"));
            case 14 -> s.put("DATE '1995-09-01'", date(firstOfMonth(1993, 1, 60)));
            case 15 -> s.put("DATE '1996-01-01'", date(firstOfMonth(1993, 1, 58)));
            case 16 -> {
                String type = oneOf(DISTRIBUTIONS.getPartTypes());
                String sizes = draw.distinct(IntStream.rangeClosed(1, 50).boxed().toList(), 8).stream()
                        .map(String::valueOf).collect(Collectors.joining(", "));
                yield s.put("'Brand#45'", quoted(brand()))
                        .put("'MEDIUM POLISHED%'", quoted(type.substring(0, type.lastIndexOf(' ')) + "%"))
                        .put("(49, 14, 23, 45, 19, 3, 36, 9)", "(" + sizes + ")");
            }
            case 17 -> s.put("'Brand#23'", quoted(brand()))
                    .put("'MED BOX'", quoted(oneOf(DISTRIBUTIONS.getPartContainers())));
            case 18 -> s.put("sum(l_quantity) > 300", "sum(l_quantity) > " + between(312, 315));
            case 19 -> {
                int q1 = between(1, 10);
                int q2 = between(10, 20);
                int q3 = between(20, 30);
                yield s.put("'Brand#12'", quoted(brand())).put("'Brand#23'", quoted(brand()))
                        .put("'Brand#34'", quoted(brand()))
                        .put("l_quantity >= 1 AND l_quantity <= 1 + 10", "l_quantity >= " + q1 + " AND l_quantity <= " + q1 + " + 10")
                        .put("l_quantity >= 10 AND l_quantity <= 10 + 10", "l_quantity >= " + q2 + " AND l_quantity <= " + q2 + " + 10")
                        .put("l_quantity >= 20 AND l_quantity <= 20 + 10", "l_quantity >= " + q3 + " AND l_quantity <= " + q3 + " + 10");
            }
            case 20 -> s.put("'forest%'", quoted(oneOf(DISTRIBUTIONS.getPartColors()) + "%"))
                    .put("DATE '1994-01-01'", date(newYear()))
                    .put("'CANADA'", quoted(oneOf(DISTRIBUTIONS.getNations())));
            case 21 -> s.put("'SAUDI ARABIA'", quoted(oneOf(DISTRIBUTIONS.getNations())));
            case 22 -> s.put("('13', '31', '23', '29', '30', '18', '17')", "("
                    + draw.distinct(IntStream.rangeClosed(10, 34).boxed().toList(), 7).stream()
                            .map(code -> quoted(String.valueOf(code))).collect(Collectors.joining(", ")) + ")");
            default -> throw new IllegalArgumentException("TPC-H has queries 1 to " + TpchQueries.COUNT + ", not " + n);
        };
    }

    private int between(int least, int most) {
        return draw.between(least, most);
    }

    private String oneOf(Distribution values) {
        return draw.oneOf(values.getValues());
    }

    private <T> T oneOf(List<T> values) {
        return draw.oneOf(values);
    }

    /** Brand#MN, M and N from 1 to 5. */
    private String brand() {
        return "Brand#" + between(1, 5) + between(1, 5);
    }

    /** January 1st of a year from 1993 to 1997. */
    private LocalDate newYear() {
        return LocalDate.of(between(1993, 1997), 1, 1);
    }

    /** The first of one of {@code months} months, the first of them {@code month} of {@code year}. */
    private LocalDate firstOfMonth(int year, int month, int months) {
        return LocalDate.of(year, month, 1).plusMonths(between(0, months - 1));
    }

    /** The region of nation {@code nation}: its weight in the generator's distribution, as in dbgen. */
    private static String regionOf(int nation) {
        return DISTRIBUTIONS.getRegions().getValue(DISTRIBUTIONS.getNations().getWeight(nation));
    }

    private static String quoted(String value) {
        return ParameterDraws.quoted(value);
    }

    private static String date(LocalDate day) {
        return "DATE '" + day + "'";
    }
}
