package dev.starling.storage.gen;

import dev.starling.storage.Catalog;
import io.trino.tpch.Customer;
import io.trino.tpch.LineItem;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.Part;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.Region;
import io.trino.tpch.Supplier;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.List;

/**
 * Generates the eight TPC-H tables with the data of the official dbgen (through {@code io.trino.tpch}).
 * Keys are INTEGER except the order keys (BIGINT); money, quantities, discounts and taxes are
 * DECIMAL(15,2) taken from the generator's exact integer values; every column is NOT NULL. The
 * primary and foreign keys of the TPC-H schema are declared, so foreign keys become dense codes.
 */
public final class TpchGenerator {
    public static final double MIN_SCALE_FACTOR = 0.001;
    /** Order keys of larger scale factors no longer fit the dense codes (row indexes) of lineitem.l_orderkey. */
    public static final double MAX_SCALE_FACTOR = 1000;
    /** Its tables, in the order they are generated (referenced ones first). */
    public static final List<String> TABLES =
            List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

    private static final TableDefinition<Region> REGION = TableDefinition.<Region>named("region")
            .integer("r_regionkey", Region::regionKey)
            .varchar("r_name", 25, Region::name)
            .varchar("r_comment", 152, Region::comment)
            .primaryKey("r_regionkey")
            .build();

    private static final TableDefinition<Nation> NATION = TableDefinition.<Nation>named("nation")
            .integer("n_nationkey", Nation::nationKey)
            .varchar("n_name", 25, Nation::name)
            .integer("n_regionkey", Nation::regionKey)
            .varchar("n_comment", 152, Nation::comment)
            .primaryKey("n_nationkey")
            .foreignKey("n_regionkey", "region", "r_regionkey")
            .build();

    private static final TableDefinition<Supplier> SUPPLIER = TableDefinition.<Supplier>named("supplier")
            .integer("s_suppkey", Supplier::supplierKey)
            .varchar("s_name", 25, Supplier::name)
            .varchar("s_address", 40, Supplier::address)
            .integer("s_nationkey", Supplier::nationKey)
            .varchar("s_phone", 15, Supplier::phone)
            .decimal("s_acctbal", 15, 2, Supplier::accountBalanceInCents)
            .varchar("s_comment", 101, Supplier::comment)
            .primaryKey("s_suppkey")
            .foreignKey("s_nationkey", "nation", "n_nationkey")
            .build();

    private static final TableDefinition<Customer> CUSTOMER = TableDefinition.<Customer>named("customer")
            .integer("c_custkey", Customer::customerKey)
            .varchar("c_name", 25, Customer::name)
            .varchar("c_address", 40, Customer::address)
            .integer("c_nationkey", Customer::nationKey)
            .varchar("c_phone", 15, Customer::phone)
            .decimal("c_acctbal", 15, 2, Customer::accountBalanceInCents)
            .varchar("c_mktsegment", 10, Customer::marketSegment)
            .varchar("c_comment", 117, Customer::comment)
            .primaryKey("c_custkey")
            .foreignKey("c_nationkey", "nation", "n_nationkey")
            .build();

    private static final TableDefinition<Part> PART = TableDefinition.<Part>named("part")
            .integer("p_partkey", Part::partKey)
            .varchar("p_name", 55, Part::name)
            .varchar("p_mfgr", 25, Part::manufacturer)
            .varchar("p_brand", 10, Part::brand)
            .varchar("p_type", 25, Part::type)
            .integer("p_size", Part::size)
            .varchar("p_container", 10, Part::container)
            .decimal("p_retailprice", 15, 2, Part::retailPriceInCents)
            .varchar("p_comment", 23, Part::comment)
            .primaryKey("p_partkey")
            .build();

    private static final TableDefinition<PartSupplier> PARTSUPP = TableDefinition.<PartSupplier>named("partsupp")
            .integer("ps_partkey", PartSupplier::partKey)
            .integer("ps_suppkey", PartSupplier::supplierKey)
            .integer("ps_availqty", PartSupplier::availableQuantity)
            .decimal("ps_supplycost", 15, 2, PartSupplier::supplyCostInCents)
            .varchar("ps_comment", 199, PartSupplier::comment)
            .primaryKey("ps_partkey", "ps_suppkey")
            .foreignKey("ps_partkey", "part", "p_partkey")
            .foreignKey("ps_suppkey", "supplier", "s_suppkey")
            .build();

    private static final TableDefinition<Order> ORDERS = TableDefinition.<Order>named("orders")
            .bigint("o_orderkey", Order::orderKey)
            .integer("o_custkey", Order::customerKey)
            .varchar("o_orderstatus", 1, o -> String.valueOf(o.orderStatus()))
            .decimal("o_totalprice", 15, 2, Order::totalPriceInCents)
            .date("o_orderdate", Order::orderDate)
            .varchar("o_orderpriority", 15, Order::orderPriority)
            .varchar("o_clerk", 15, Order::clerk)
            .integer("o_shippriority", Order::shipPriority)
            .varchar("o_comment", 79, Order::comment)
            .primaryKey("o_orderkey")
            .foreignKey("o_custkey", "customer", "c_custkey")
            .build();

    // The generator gives quantities in units and discounts and taxes in percent: scaled by 100
    // for DECIMAL(15,2), 17 becomes 17.00 and 4 percent 0.04.
    private static final TableDefinition<LineItem> LINEITEM = TableDefinition.<LineItem>named("lineitem")
            .bigint("l_orderkey", LineItem::orderKey)
            .integer("l_partkey", LineItem::partKey)
            .integer("l_suppkey", LineItem::supplierKey)
            .integer("l_linenumber", LineItem::lineNumber)
            .decimal("l_quantity", 15, 2, l -> l.quantity() * 100)
            .decimal("l_extendedprice", 15, 2, LineItem::extendedPriceInCents)
            .decimal("l_discount", 15, 2, LineItem::discountPercent)
            .decimal("l_tax", 15, 2, LineItem::taxPercent)
            .varchar("l_returnflag", 1, LineItem::returnFlag)
            .varchar("l_linestatus", 1, LineItem::status)
            .date("l_shipdate", LineItem::shipDate)
            .date("l_commitdate", LineItem::commitDate)
            .date("l_receiptdate", LineItem::receiptDate)
            .varchar("l_shipinstruct", 25, LineItem::shipInstructions)
            .varchar("l_shipmode", 10, LineItem::shipMode)
            .varchar("l_comment", 44, LineItem::comment)
            .primaryKey("l_orderkey", "l_linenumber")
            .foreignKey("l_orderkey", "orders", "o_orderkey")
            .foreignKey("l_partkey", "part", "p_partkey")
            .foreignKey("l_suppkey", "supplier", "s_suppkey")
            .foreignKey(List.of("l_partkey", "l_suppkey"), "partsupp", List.of("ps_partkey", "ps_suppkey"))
            .build();

    private TpchGenerator() { }

    /**
     * Creates the TPC-H tables at {@code scaleFactor} (0.001 to 1000; lineitem holds about
     * 6,000,000 rows per unit) in {@code schema}: "" for plain names such as {@code lineitem},
     * otherwise names such as {@code tpch.lineitem}. None of the tables may exist yet.
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
            throw new IllegalArgumentException("TPC-H scale factor must be between " + MIN_SCALE_FACTOR + " and "
                    + MAX_SCALE_FACTOR + ", got " + scaleFactor);
        }
        ParallelTableWriter writer = new ParallelTableWriter(catalog, schema, workers, checkpoint);
        // Referenced tables first: a foreign key is coded against the rows of the table it references.
        List<Source<?>> sources = List.of(
                new Source<>(REGION, TpchTable.REGION, 5),
                new Source<>(NATION, TpchTable.NATION, 25),
                new Source<>(SUPPLIER, TpchTable.SUPPLIER, 10_000 * scaleFactor),
                new Source<>(CUSTOMER, TpchTable.CUSTOMER, 150_000 * scaleFactor),
                new Source<>(PART, TpchTable.PART, 200_000 * scaleFactor),
                new Source<>(PARTSUPP, TpchTable.PART_SUPPLIER, 800_000 * scaleFactor),
                new Source<>(ORDERS, TpchTable.ORDERS, 1_500_000 * scaleFactor),
                new Source<>(LINEITEM, TpchTable.LINE_ITEM, 6_000_000 * scaleFactor));
        writer.createAll("TPC-H", TABLES, () -> {
            for (Source<?> source : sources) {
                source.put(writer, scaleFactor);
            }
        });
    }

    /** A table's definition and its dbgen generator, which emits the same rows however it is split. */
    private record Source<E extends TpchEntity>(TableDefinition<E> definition, TpchTable<E> table, double rows) {
        void put(ParallelTableWriter writer, double scaleFactor) {
            writer.put(definition, (long) rows,
                    (part, parts, sink) -> table.createGenerator(scaleFactor, part + 1, parts).forEach(sink));
        }
    }
}
