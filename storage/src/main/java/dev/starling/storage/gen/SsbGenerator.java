package dev.starling.storage.gen;

import dev.starling.storage.Catalog;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Generates the Star Schema Benchmark tables (O'Neil, O'Neil and Chen, revision 3): the fact table
 * {@code lineorder} and the dimensions {@code customer}, {@code supplier}, {@code part} and
 * {@code dwdate}, the spec's DATE table renamed because DATE is a reserved word in SQL. Sizes at
 * scale factor SF: SF * 1,500,000 orders of 1 to 7 lines (about SF * 6,000,000 rows),
 * SF * 30,000 customers, SF * 2,000 suppliers, 200,000 * floor(1 + log2 SF) parts (for SF below 1,
 * 200,000 * SF rounded up) and the 2557 days of 1992 to 1998. Numeric columns are INTEGER, as in
 * ssb-dbgen; foreign keys of lineorder are declared, so they become dense codes. The data is
 * deterministic: each block of rows draws from its own seeded random stream.
 */
public final class SsbGenerator {
    public static final double MIN_SCALE_FACTOR = 0.001;
    /** The spec's bound for INTEGER order keys. */
    public static final double MAX_SCALE_FACTOR = 300;
    /** Its tables, in the order they are generated (referenced ones first). */
    public static final List<String> TABLES = List.of("dwdate", "customer", "supplier", "part", "lineorder");

    private SsbGenerator() { }

    /**
     * Creates the SSB tables at {@code scaleFactor} (0.001 to 300) in {@code schema}: "" for plain
     * names such as {@code lineorder}, otherwise names such as {@code ssb.lineorder}. None of the
     * tables may exist yet.
     */
    public static void generate(Catalog catalog, double scaleFactor, String schema) {
        generate(catalog, scaleFactor, schema, () -> { });
    }

    /**
     * As {@link #generate(Catalog, double, String)}, calling {@code checkpoint} every so many rows:
     * what it throws stops the generation, and no table of it is made.
     */
    public static void generate(Catalog catalog, double scaleFactor, String schema, Runnable checkpoint) {
        generate(catalog, scaleFactor, schema, Runtime.getRuntime().availableProcessors(), checkpoint);
    }

    static void generate(Catalog catalog, double scaleFactor, String schema, int workers) {
        generate(catalog, scaleFactor, schema, workers, () -> { });
    }

    private static void generate(Catalog catalog, double scaleFactor, String schema, int workers, Runnable checkpoint) {
        if (!(scaleFactor >= MIN_SCALE_FACTOR && scaleFactor <= MAX_SCALE_FACTOR)) {
            throw new IllegalArgumentException("SSB scale factor must be between " + MIN_SCALE_FACTOR + " and "
                    + MAX_SCALE_FACTOR + ", got " + scaleFactor);
        }
        ParallelTableWriter writer = new ParallelTableWriter(catalog, schema, workers, checkpoint);
        long orders = scaled(scaleFactor, 1_500_000, RoundingMode.FLOOR);
        long customers = scaled(scaleFactor, 30_000, RoundingMode.FLOOR);
        long suppliers = scaled(scaleFactor, 2_000, RoundingMode.FLOOR);
        long parts = parts(scaleFactor);
        // Referenced tables first: a foreign key is coded against the rows of the table it references.
        writer.createAll("SSB", TABLES, () -> {
            writer.put(SsbDates.DEFINITION, SsbDates.DAYS, new SsbDates());
            writer.put(SsbBusinesses.CUSTOMER, customers, SsbBusinesses.customers(customers));
            writer.put(SsbBusinesses.SUPPLIER, suppliers, SsbBusinesses.suppliers(suppliers));
            writer.put(SsbParts.DEFINITION, parts, new SsbParts(parts));
            writer.put(SsbLineOrders.DEFINITION, 4 * orders, new SsbLineOrders(orders, customers, parts, suppliers));
        });
    }

    static long parts(double scaleFactor) {
        if (scaleFactor < 1) {
            return scaled(scaleFactor, 200_000, RoundingMode.CEILING);
        }
        int log2 = 63 - Long.numberOfLeadingZeros((long) scaleFactor);
        return 200_000L * (1 + log2);
    }

    /** {@code base * scaleFactor} computed on the decimal the caller wrote (0.01, not its binary neighbour). */
    private static long scaled(double scaleFactor, long base, RoundingMode rounding) {
        return BigDecimal.valueOf(scaleFactor).multiply(BigDecimal.valueOf(base)).setScale(0, rounding).longValueExact();
    }
}
