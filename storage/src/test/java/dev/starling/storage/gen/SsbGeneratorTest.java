package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableRows;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SsbGeneratorTest {

    @Test
    void rowCountsFollowTheSpecAtScaleFactorOneHundredth() {
        Catalog catalog = GeneratedData.ssb();
        Map<String, Long> expected = Map.of("customer", 300L, "supplier", 20L, "part", 2_000L, "dwdate", 2_557L);
        expected.forEach((table, rows) -> assertEquals(rows, catalog.require(table).rowCount(), table));
        assertEquals(5, catalog.tables().size());
        assertEquals(catalog.tables().stream().map(Table::name).collect(Collectors.toSet()), Set.copyOf(SsbGenerator.TABLES),
                "the tables it names are those it makes");

        Table lineorder = catalog.require("lineorder");
        Set<Object> orders = TableRows.of(lineorder, catalog).stream().map(r -> r.get(0)).collect(Collectors.toSet());
        assertEquals(15_000, orders.size());
        // 1 to 7 lines per order: 4 on average.
        assertTrue(Math.abs(lineorder.rowCount() - 60_000) < 1_000, "lineorder rows: " + lineorder.rowCount());
    }

    @Test
    void partCountFollowsTheSpec() {
        assertEquals(2_000, SsbGenerator.parts(0.01));
        assertEquals(200_000, SsbGenerator.parts(1));
        assertEquals(200_000, SsbGenerator.parts(1.9));
        assertEquals(400_000, SsbGenerator.parts(2));
        assertEquals(800_000, SsbGenerator.parts(10));
    }

    @Test
    void keysAndTypes() {
        Table lineorder = GeneratedData.ssb().require("lineorder");
        assertEquals(List.of("lo_orderkey", "lo_linenumber"), lineorder.schema().primaryKey());
        assertEquals(new Column.DenseReference("dwdate", "d_datekey"), lineorder.column("lo_orderdate").denseReference());
        assertEquals(new Column.DenseReference("customer", "c_custkey"), lineorder.column("lo_custkey").denseReference());
        assertEquals(new Column.DenseReference("part", "p_partkey"), lineorder.column("lo_partkey").denseReference());
        assertEquals(new Column.DenseReference("supplier", "s_suppkey"), lineorder.column("lo_suppkey").denseReference());
        assertTrue(lineorder.columns().stream().filter(c -> c.type().kind() != DataType.Kind.VARCHAR)
                .allMatch(c -> c.type().equals(DataType.INTEGER)));
        assertEquals(List.of("d_datekey"), GeneratedData.ssb().require("dwdate").schema().primaryKey());
    }

    /** Each line's money follows from its part, quantity and discount; values stay in the spec's ranges. */
    @Test
    void lineorderValuesAreConsistent() {
        Catalog catalog = GeneratedData.ssb();
        Table lineorder = catalog.require("lineorder");
        int quantity = lineorder.schema().indexOf("lo_quantity");
        int extended = lineorder.schema().indexOf("lo_extendedprice");
        int discount = lineorder.schema().indexOf("lo_discount");
        int revenue = lineorder.schema().indexOf("lo_revenue");
        int tax = lineorder.schema().indexOf("lo_tax");
        int partKey = lineorder.schema().indexOf("lo_partkey");
        int orderDate = lineorder.schema().indexOf("lo_orderdate");
        int commitDate = lineorder.schema().indexOf("lo_commitdate");
        for (List<Object> row : TableRows.of(lineorder, catalog)) {
            long q = (Long) row.get(quantity);
            long d = (Long) row.get(discount);
            long e = (Long) row.get(extended);
            assertTrue(q >= 1 && q <= 50 && d >= 0 && d <= 10, row.toString());
            assertTrue((Long) row.get(tax) >= 0 && (Long) row.get(tax) <= 8, row.toString());
            assertEquals(q * SsbParts.retailPriceCents((Long) row.get(partKey)), e, row.toString());
            assertEquals(e * (100 - d) / 100, (long) (Long) row.get(revenue), row.toString());
            assertTrue((Long) row.get(commitDate) > (Long) row.get(orderDate), row.toString());
        }
    }

    @Test
    void dateDimensionDescribesEachDay() {
        Catalog catalog = GeneratedData.ssb();
        List<List<Object>> days = TableRows.of(catalog.require("dwdate"), catalog);
        assertEquals(List.<Object>of(19920101L, "January 1, 1992", "Wednesday", "January", 1992L, 199201L, "Jan1992",
                4L, 1L, 1L, 1L, 1L, "Winter", 0L, 0L, 1L, 1L), days.get(0));
        assertEquals(List.<Object>of(19981231L, "December 31, 1998", "Thursday", "December", 1998L, 199812L, "Dec1998",
                5L, 31L, 365L, 12L, 53L, "Christmas", 0L, 1L, 0L, 1L), days.get(days.size() - 1));
    }

    /** The constants the 13 queries select on exist, so none of them is empty for want of a value. */
    @Test
    void queriedValuesExist() {
        Catalog catalog = GeneratedData.ssb();
        assertContains(catalog, "part", "p_brand1", "MFGR#2239", "MFGR#2221", "MFGR#2228");
        assertContains(catalog, "part", "p_category", "MFGR#12", "MFGR#14");
        assertContains(catalog, "part", "p_mfgr", "MFGR#1", "MFGR#2");
        assertContains(catalog, "customer", "c_city", "UNITED KI1", "UNITED KI5");
        assertContains(catalog, "supplier", "s_city", "UNITED KI1", "UNITED KI5");
        assertContains(catalog, "customer", "c_nation", "UNITED STATES");
        assertContains(catalog, "supplier", "s_nation", "UNITED STATES");
        assertContains(catalog, "customer", "c_region", "AMERICA", "ASIA");
        assertContains(catalog, "supplier", "s_region", "AMERICA", "ASIA", "EUROPE");
        assertContains(catalog, "dwdate", "d_yearmonth", "Dec1997", "Jan1994");
        // 250 cities, 25 per region and 10 per nation, each named after its nation.
        Set<String> cities = values(GeneratedData.ssb(), "customer", "c_city");
        assertEquals(250, cities.size());
        assertTrue(cities.contains("ALGERIA  0") && cities.contains("UNITED ST9"), cities.toString());
        assertEquals(1000, values(catalog, "part", "p_brand1").size());
    }

    /** The data depends on the scale factor only: not on how the work is split, nor on the schema. */
    @Test
    void sameBytesForAnySplitAndSchema() {
        Catalog qualified = Catalog.inMemory();
        SsbGenerator.generate(qualified, GeneratedData.SCALE_FACTOR, "SSB", 1);
        for (Table table : GeneratedData.ssb().tables()) {
            Table other = qualified.require("ssb." + table.name());
            assertEquals(TableDigest.of(table), TableDigest.of(other), table.name());
        }
        assertEquals(new Column.DenseReference("ssb.dwdate", "d_datekey"),
                qualified.require("ssb.lineorder").column("lo_orderdate").denseReference());
    }

    @Test
    void rejectsBadArgumentsBeforeGeneratingAnything() {
        Catalog empty = Catalog.inMemory();
        for (double sf : new double[] {0, Double.NaN, Double.POSITIVE_INFINITY, 0.0005, 301}) {
            assertThrows(IllegalArgumentException.class, () -> SsbGenerator.generate(empty, sf, ""), "SF " + sf);
        }
        assertThrows(IllegalArgumentException.class, () -> SsbGenerator.generate(empty, 0.01, "ssb.x"));
        assertTrue(empty.tables().isEmpty());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SsbGenerator.generate(GeneratedData.ssb(), 0.01, ""));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
    }

    private static void assertContains(Catalog catalog, String table, String column, String... expected) {
        Set<String> values = values(catalog, table, column);
        assertTrue(values.containsAll(Arrays.asList(expected)), table + "." + column + " lacks one of "
                + Arrays.toString(expected));
    }

    private static Set<String> values(Catalog catalog, String table, String column) {
        return new HashSet<>(Arrays.asList(catalog.require(table).column(column).dictionary().toArray()));
    }
}
