package dev.starling.storage.gen;

import io.trino.tpch.Distributions;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * SSB's customer and supplier tables: businesses with a name, an address, a city (spread evenly
 * over the 250 cities, see {@link BalancedCycle}) with its nation and region, and a phone number
 * whose country code is the nation key + 10; customers also have a market segment.
 */
final class SsbBusinesses implements ParallelTableWriter.PartGenerator<SsbBusinesses.Business> {
    private static final List<String> SEGMENTS = Distributions.getDefaultDistributions().getMarketSegments().getValues();
    private static final String ADDRESS_CHARACTERS =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, ";

    /** A customer or supplier; suppliers have no market segment. */
    record Business(long key, String name, String address, int city, String phone, String marketSegment) {
        String cityName() {
            return SsbGeography.cityName(city);
        }

        String nation() {
            return SsbGeography.nation(city);
        }

        String region() {
            return SsbGeography.region(city);
        }
    }

    static final TableDefinition<Business> CUSTOMER = TableDefinition.<Business>named("customer")
            .integer("c_custkey", Business::key)
            .varchar("c_name", 25, Business::name)
            .varchar("c_address", 25, Business::address)
            .varchar("c_city", 10, Business::cityName)
            .varchar("c_nation", 15, Business::nation)
            .varchar("c_region", 12, Business::region)
            .varchar("c_phone", 15, Business::phone)
            .varchar("c_mktsegment", 10, Business::marketSegment)
            .primaryKey("c_custkey")
            .build();

    static final TableDefinition<Business> SUPPLIER = TableDefinition.<Business>named("supplier")
            .integer("s_suppkey", Business::key)
            .varchar("s_name", 25, Business::name)
            .varchar("s_address", 25, Business::address)
            .varchar("s_city", 10, Business::cityName)
            .varchar("s_nation", 15, Business::nation)
            .varchar("s_region", 12, Business::region)
            .varchar("s_phone", 15, Business::phone)
            .primaryKey("s_suppkey")
            .build();

    private final String namePrefix;
    private final boolean hasMarketSegment;
    private final long seed;
    private final long count;

    private SsbBusinesses(String namePrefix, boolean hasMarketSegment, long seed, long count) {
        this.namePrefix = namePrefix;
        this.hasMarketSegment = hasMarketSegment;
        this.seed = seed;
        this.count = count;
    }

    static SsbBusinesses customers(long count) {
        return new SsbBusinesses("Customer#", true, 0x5EED_C057L, count);
    }

    static SsbBusinesses suppliers(long count) {
        return new SsbBusinesses("Supplier#", false, 0x5EED_5599L, count);
    }

    @Override
    public void generate(int part, int parts, Consumer<Business> sink) {
        // The order of the cities draws from streams of its own (~seed), apart from the rows' streams.
        BalancedCycle cities = new BalancedCycle(SsbGeography.CITIES, ~seed, SsbGeography.QUERIED_CITIES);
        new SeededBlocks(seed, count).forEach(part, parts, (i, random) -> {
            long key = i + 1;
            int city = cities.valueAt(i);
            String address = address(random);
            String phone = phone(SsbGeography.nationKey(city), random);
            String segment = hasMarketSegment ? SEGMENTS.get(random.nextInt(SEGMENTS.size())) : null;
            sink.accept(new Business(key, String.format("%s%09d", namePrefix, key), address, city, phone, segment));
        });
    }

    private static String address(SplittableRandom random) {
        char[] chars = new char[10 + random.nextInt(16)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ADDRESS_CHARACTERS.charAt(random.nextInt(ADDRESS_CHARACTERS.length()));
        }
        return new String(chars);
    }

    private static String phone(int nationKey, SplittableRandom random) {
        return String.format("%02d-%03d-%03d-%04d", nationKey + 10, 100 + random.nextInt(900),
                100 + random.nextInt(900), 1000 + random.nextInt(9000));
    }
}
