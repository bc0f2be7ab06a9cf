package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import dev.starling.storage.TableRows;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TpchGeneratorTest {

    @Test
    void rowCountsAreTheSpecsAtScaleFactorOneHundredth() {
        Catalog catalog = GeneratedData.tpch();
        Map<String, Long> expected = Map.of("region", 5L, "nation", 25L, "supplier", 100L, "customer", 1_500L,
                "part", 2_000L, "partsupp", 8_000L, "orders", 15_000L, "lineitem", 60_175L);
        expected.forEach((table, rows) -> assertEquals(rows, catalog.require(table).rowCount(), table));
        assertEquals(expected.size(), catalog.tables().size());
        assertEquals(expected.keySet(), java.util.Set.copyOf(TpchGenerator.TABLES), "the tables it names are those it makes");
    }

    @Test
    void typesAndKeysFollowTheTpchSchema() {
        Table lineitem = GeneratedData.tpch().require("lineitem");
        assertEquals(DataType.BIGINT, lineitem.column("l_orderkey").type());
        assertEquals(DataType.INTEGER, lineitem.column("l_partkey").type());
        assertEquals(DataType.decimal(15, 2), lineitem.column("l_extendedprice").type());
        assertEquals(DataType.DATE, lineitem.column("l_shipdate").type());
        assertEquals(DataType.varchar(44), lineitem.column("l_comment").type());
        assertTrue(lineitem.columns().stream().noneMatch(c -> c.schema().nullable()));
        assertEquals(List.of("l_orderkey", "l_linenumber"), lineitem.schema().primaryKey());
        assertTrue(lineitem.schema().foreignKeys().contains(
                new ForeignKey(List.of("l_partkey", "l_suppkey"), "partsupp", List.of("ps_partkey", "ps_suppkey"))));
        assertEquals(new Column.DenseReference("orders", "o_orderkey"), lineitem.column("l_orderkey").denseReference());
        assertEquals(new Column.DenseReference("supplier", "s_suppkey"), lineitem.column("l_suppkey").denseReference());
        assertEquals(DataType.BIGINT, GeneratedData.tpch().require("orders").column("o_orderkey").type());
    }

    /** Every lineitem row, in order, holds dbgen's exact values: cents, percent and days are not rounded. */
    @Test
    void lineitemHoldsDbgensExactValues() {
        Catalog catalog = GeneratedData.tpch();
        List<List<Object>> rows = TableRows.of(catalog.require("lineitem"), catalog);
        int r = 0;
        for (LineItem expected : new LineItemGenerator(GeneratedData.SCALE_FACTOR, 1, 1)) {
            List<Object> row = rows.get(r++);
            assertEquals(List.of(expected.orderKey(), expected.partKey(), expected.supplierKey(),
                    (long) expected.lineNumber(), expected.quantity() * 100, expected.extendedPriceInCents(),
                    expected.discountPercent(), expected.taxPercent(), expected.returnFlag(), expected.status(),
                    (long) expected.shipDate(), (long) expected.commitDate(), (long) expected.receiptDate(),
                    expected.shipInstructions(), expected.shipMode(), expected.comment()), row, "row " + r);
        }
        assertEquals(rows.size(), r);
    }

    /** The data depends on the scale factor only: not on how the work is split, nor on the schema. */
    @Test
    void sameBytesForAnySplitAndSchema() {
        Catalog qualified = Catalog.inMemory();
        TpchGenerator.generate(qualified, GeneratedData.SCALE_FACTOR, "tpch", 1);
        for (Table table : GeneratedData.tpch().tables()) {
            Table other = qualified.require("tpch." + table.name());
            assertEquals(TableDigest.of(table), TableDigest.of(other), table.name());
        }
        assertEquals(new Column.DenseReference("tpch.orders", "o_orderkey"),
                qualified.require("tpch.lineitem").column("l_orderkey").denseReference());
        assertTrue(qualified.require("tpch.lineitem").schema().foreignKeys().stream()
                .allMatch(fk -> fk.referencedTable().startsWith("tpch.")));
    }

    @Test
    void rejectsBadArgumentsBeforeGeneratingAnything() {
        Catalog empty = Catalog.inMemory();
        for (double sf : new double[] {0, -1, Double.NaN, 0.0001, 1001}) {
            assertThrows(IllegalArgumentException.class, () -> TpchGenerator.generate(empty, sf, ""), "SF " + sf);
        }
        assertThrows(IllegalArgumentException.class, () -> TpchGenerator.generate(empty, 0.01, "my schema"));
        assertTrue(empty.tables().isEmpty());

        Catalog existing = GeneratedData.tpch();
        long version = existing.version();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TpchGenerator.generate(existing, 0.01, ""));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
        assertEquals(version, existing.version());
    }
}
