package dev.starling.planner;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Small catalogs with the TPC-H and SSB schemas (keys and foreign keys declared) and synthetic rows:
 * enough for the planner's cardinality-based decisions, not for meaningful query answers.
 */
final class TestCatalogs {
    private TestCatalogs() {
    }

    static Catalog tpch() {
        Catalog c = Catalog.inMemory();
        table(c, "region", 5, "r_regionkey int, r_name varchar(25), r_comment varchar(152)", "r_regionkey");
        table(c, "nation", 25, "n_nationkey int, n_name varchar(25), n_regionkey int, n_comment varchar(152)",
                "n_nationkey", ForeignKey.of("n_regionkey", "region", "r_regionkey"));
        table(c, "supplier", 100, "s_suppkey int, s_name varchar(25), s_address varchar(40), s_nationkey int, "
                + "s_phone varchar(15), s_acctbal decimal(15,2), s_comment varchar(101)", "s_suppkey",
                ForeignKey.of("s_nationkey", "nation", "n_nationkey"));
        table(c, "customer", 1500, "c_custkey int, c_name varchar(25), c_address varchar(40), c_nationkey int, "
                + "c_phone varchar(15), c_acctbal decimal(15,2), c_mktsegment varchar(10), c_comment varchar(117)",
                "c_custkey", ForeignKey.of("c_nationkey", "nation", "n_nationkey"));
        table(c, "part", 2000, "p_partkey int, p_name varchar(55), p_mfgr varchar(25), p_brand varchar(10), "
                + "p_type varchar(25), p_size int, p_container varchar(10), p_retailprice decimal(15,2), "
                + "p_comment varchar(23)", "p_partkey");
        table(c, "partsupp", 8000, "ps_partkey int, ps_suppkey int, ps_availqty int, ps_supplycost decimal(15,2), "
                + "ps_comment varchar(199)", "ps_partkey,ps_suppkey",
                ForeignKey.of("ps_partkey", "part", "p_partkey"), ForeignKey.of("ps_suppkey", "supplier", "s_suppkey"));
        table(c, "orders", 15000, "o_orderkey bigint, o_custkey int, o_orderstatus varchar(1), "
                + "o_totalprice decimal(15,2), o_orderdate date, o_orderpriority varchar(15), o_clerk varchar(15), "
                + "o_shippriority int, o_comment varchar(79)", "o_orderkey",
                ForeignKey.of("o_custkey", "customer", "c_custkey"));
        table(c, "lineitem", 60000, "l_orderkey bigint, l_partkey int, l_suppkey int, l_linenumber int, "
                + "l_quantity decimal(15,2), l_extendedprice decimal(15,2), l_discount decimal(15,2), "
                + "l_tax decimal(15,2), l_returnflag varchar(1), l_linestatus varchar(1), l_shipdate date, "
                + "l_commitdate date, l_receiptdate date, l_shipinstruct varchar(25), l_shipmode varchar(10), "
                + "l_comment varchar(44)", "l_orderkey,l_linenumber",
                ForeignKey.of("l_orderkey", "orders", "o_orderkey"), ForeignKey.of("l_partkey", "part", "p_partkey"),
                ForeignKey.of("l_suppkey", "supplier", "s_suppkey"));
        return c;
    }

    static Catalog ssb() {
        Catalog c = Catalog.inMemory();
        table(c, "date", 2556, "d_datekey int, d_date varchar(18), d_year int, d_yearmonthnum int, "
                + "d_yearmonth varchar(7), d_weeknuminyear int", "d_datekey");
        table(c, "customer", 300, "c_custkey int, c_name varchar(25), c_city varchar(10), c_nation varchar(15), "
                + "c_region varchar(12)", "c_custkey");
        table(c, "supplier", 20, "s_suppkey int, s_name varchar(25), s_city varchar(10), s_nation varchar(15), "
                + "s_region varchar(12)", "s_suppkey");
        table(c, "part", 2000, "p_partkey int, p_name varchar(22), p_mfgr varchar(6), p_category varchar(7), "
                + "p_brand1 varchar(9)", "p_partkey");
        table(c, "lineorder", 60000, "lo_orderkey int, lo_linenumber int, lo_custkey int, lo_partkey int, "
                + "lo_suppkey int, lo_orderdate int, lo_quantity int, lo_extendedprice int, lo_discount int, "
                + "lo_revenue int, lo_supplycost int", "lo_orderkey,lo_linenumber",
                ForeignKey.of("lo_custkey", "customer", "c_custkey"), ForeignKey.of("lo_partkey", "part", "p_partkey"),
                ForeignKey.of("lo_suppkey", "supplier", "s_suppkey"), ForeignKey.of("lo_orderdate", "date", "d_datekey"));
        return c;
    }

    /**
     * Adds a table of {@code rows} rows: a single-column primary key counts 0, 1, 2, ...; a foreign
     * key spreads over the referenced keys; other columns cycle through a few values.
     */
    static void table(Catalog catalog, String name, int rows, String columns, String primaryKey, ForeignKey... fks) {
        List<ColumnSchema> cols = new ArrayList<>();
        for (String def : columns.split(",\\s*(?![^()]*\\))")) {
            String[] parts = def.trim().split("\\s+", 2);
            cols.add(new ColumnSchema(parts[0], DataType.parse(parts[1]), false));
        }
        TableSchema schema = new TableSchema(name, cols, Arrays.asList(primaryKey.split(",")), List.of(fks));
        TableBuilder b = new TableBuilder(schema, catalog);
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < cols.size(); i++) {
                ColumnSchema col = cols.get(i);
                var fk = schema.singleColumnForeignKey(col.name());
                if (fk.isPresent()) {
                    long referenced = catalog.require(fk.get().referencedTable()).rowCount();
                    b.setLong(i, (r * 7L + r / referenced) % referenced);
                } else if (schema.primaryKey().size() == 1 && schema.primaryKey().get(0).equals(col.name())) {
                    b.setLong(i, r);
                } else {
                    switch (col.type().kind()) {
                        case VARCHAR -> b.setString(i, within(col, "#" + (r % 7) + col.name()));
                        case DOUBLE -> b.setDouble(i, r % 11 * 1.5);
                        case DATE -> b.setLong(i, 8000 + r % 2500);
                        default -> b.setLong(i, r % 50 + (i == 1 ? r : 0));
                    }
                }
            }
            b.endRow();
        }
        catalog.put(b.build());
    }

    /** {@code text} cut to {@code col}'s declared length, which writes keep. */
    private static String within(ColumnSchema col, String text) {
        int length = col.type().precision();
        return length > 0 && text.length() > length ? text.substring(0, length) : text;
    }
}
