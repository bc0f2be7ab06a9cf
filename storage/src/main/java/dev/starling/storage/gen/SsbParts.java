package dev.starling.storage.gen;

import io.trino.tpch.Distributions;
import java.util.List;
import java.util.function.Consumer;

/**
 * SSB's part table. The 1000 brands (40 per category, 5 categories per manufacturer) are spread
 * evenly over the parts (see {@link BalancedCycle}): from SF 0.005 on, every brand exists. Colors,
 * types and containers are TPC-H's; the retail price follows TPC-H's formula on the part key.
 */
final class SsbParts implements ParallelTableWriter.PartGenerator<SsbParts.Part> {
    private static final Distributions TPCH = Distributions.getDefaultDistributions();
    private static final List<String> COLORS = TPCH.getPartColors().getValues();
    private static final List<String> TYPES = TPCH.getPartTypes().getValues();
    private static final List<String> CONTAINERS = TPCH.getPartContainers().getValues();
    private static final int BRANDS = 1000;
    private static final long SEED = 0x5EED_9A27L;

    /** {@code brand} is 0..999: manufacturer brand / 200 + 1, category digit brand / 40 % 5 + 1, brand digits brand % 40 + 1. */
    record Part(long key, String name, int brand, String color, String type, int size, String container) {
        String manufacturer() {
            return "MFGR#" + (brand / 200 + 1);
        }

        String category() {
            return manufacturer() + (brand / 40 % 5 + 1);
        }

        String brand1() {
            return category() + (brand % 40 + 1);
        }
    }

    static final TableDefinition<Part> DEFINITION = TableDefinition.<Part>named("part")
            .integer("p_partkey", Part::key)
            .varchar("p_name", 22, Part::name)
            .varchar("p_mfgr", 6, Part::manufacturer)
            .varchar("p_category", 7, Part::category)
            .varchar("p_brand1", 9, Part::brand1)
            .varchar("p_color", 11, Part::color)
            .varchar("p_type", 25, Part::type)
            .integer("p_size", Part::size)
            .varchar("p_container", 10, Part::container)
            .primaryKey("p_partkey")
            .build();

    private final long count;

    SsbParts(long count) {
        this.count = count;
    }

    /** TPC-H's retail price of a part in cents, 900.00 to 2099.00. */
    static int retailPriceCents(long partKey) {
        return (int) (90_000 + partKey / 10 % 20_001 + 100 * (partKey % 1_000));
    }

    @Override
    public void generate(int part, int parts, Consumer<Part> sink) {
        BalancedCycle brands = new BalancedCycle(BRANDS, ~SEED);
        new SeededBlocks(SEED, count).forEach(part, parts, (i, random) -> {
            String name = COLORS.get(random.nextInt(COLORS.size())) + " " + COLORS.get(random.nextInt(COLORS.size()));
            sink.accept(new Part(i + 1, name, brands.valueAt(i), COLORS.get(random.nextInt(COLORS.size())),
                    TYPES.get(random.nextInt(TYPES.size())), 1 + random.nextInt(50),
                    CONTAINERS.get(random.nextInt(CONTAINERS.size()))));
        });
    }
}
