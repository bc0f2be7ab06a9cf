package dev.starling.storage.gen;

import io.trino.tpch.Distribution;
import io.trino.tpch.Distributions;
import java.util.ArrayList;
import java.util.List;

/**
 * SSB's places: the 25 TPC-H nations in their 5 regions, ten cities per nation. A city is numbered
 * {@code nation * 10 + digit} and named after its nation, padded or cut to 9 characters, followed by
 * the digit ({@code UNITED KI1}, {@code ALGERIA  0}).
 */
final class SsbGeography {
    static final int CITIES = 250;

    private static final List<String> NATIONS;
    private static final List<String> NATION_REGIONS = new ArrayList<>();
    private static final String[] CITY_NAMES = new String[CITIES];

    static {
        // As in dbgen (and io.trino.tpch's NationGenerator), a nation's weight is its region key. The
        // generators are not used here: they would build TPC-H's text pool for the nation comments.
        Distributions tpch = Distributions.getDefaultDistributions();
        Distribution nations = tpch.getNations();
        NATIONS = nations.getValues();
        for (int n = 0; n < nations.size(); n++) {
            NATION_REGIONS.add(tpch.getRegions().getValue(nations.getWeight(n)));
        }
        for (int city = 0; city < CITIES; city++) {
            CITY_NAMES[city] = String.format("%-9.9s%d", nation(city), city % 10);
        }
    }

    /**
     * Cities that the standard queries select (Q3.3 and Q3.4 UNITED KI1 and UNITED KI5, Q3.2 and
     * Q4.3 the UNITED STATES, Q2.2 and Q3.1 ASIA by way of CHINA): customers and suppliers list them
     * first in every cycle of cities, so that even SF 0.01, with 20 suppliers, has them.
     */
    static final int[] QUERIED_CITIES = {city("UNITED KINGDOM", 1), city("UNITED KINGDOM", 5),
            city("UNITED STATES", 0), city("CHINA", 0)};

    private SsbGeography() { }

    private static int city(String nation, int digit) {
        return NATIONS.indexOf(nation) * 10 + digit;
    }

    /** The TPC-H nation key of a city's nation. */
    static int nationKey(int city) {
        return city / 10;
    }

    static String nation(int city) {
        return NATIONS.get(nationKey(city));
    }

    static String region(int city) {
        return NATION_REGIONS.get(nationKey(city));
    }

    static String cityName(int city) {
        return CITY_NAMES[city];
    }
}
