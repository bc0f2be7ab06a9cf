package dev.starling.exec.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.engine.Starling;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.Table;
import dev.starling.storage.gen.TpchGenerator;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Rows read back at chosen table rows, in any order and repeated, across chunks, equal what a
 * query reads for the same key: values, strings, dates, decimals, a foreign key's values and codes,
 * and the row ids themselves.
 */
class ScanRowsTest {

    @Test
    void rowsInAnyOrderAcrossChunksAreTheScannedOnes() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.1, "");
            Table orders = db.catalog().require("orders");
            List<String> names = List.of("o_orderkey", "o_custkey", "o_orderdate", "o_totalprice", "o_comment");
            List<ScanColumn> columns = new ArrayList<>();
            for (String name : names) {
                columns.add(new ScanColumn(orders.schema().indexOf(name), ScanColumn.Mode.VALUE));
            }
            columns.add(new ScanColumn(orders.schema().indexOf("o_custkey"), ScanColumn.Mode.CODE));
            columns.add(new ScanColumn(-1, ScanColumn.Mode.ROW_ID));
            Map<Object, List<Object>> byKey = new HashMap<>();
            for (List<Object> row : db.query("SELECT " + String.join(", ", names) + " FROM orders").rows()) {
                byKey.put(row.get(0), row);
            }
            long[] rows = new Random(3).longs(20_000, 0, orders.rowCount()).toArray();
            rows[0] = orders.rowCount() - 1;
            rows[1] = 0;
            BitSet all = new BitSet();
            all.set(0, columns.size());
            Batch read = ScanRows.at(new ScanNode(orders, columns, null), all, rows, db.catalog());

            assertEquals(rows.length, read.rows());
            Map<Long, Long> codeOfCustomer = new HashMap<>();
            for (int i = 0; i < rows.length; i++) {
                List<Object> expected = byKey.get(read.column(0).value(i));
                for (int c = 0; c < names.size(); c++) {
                    assertEquals(expected.get(c), read.column(c).value(i), names.get(c) + " at row " + rows[i]);
                }
                assertEquals(rows[i], read.column(names.size() + 1).getLong(i), "the row id");
                Long code = codeOfCustomer.putIfAbsent(read.column(1).getLong(i), read.column(names.size()).getLong(i));
                assertEquals(code == null ? read.column(names.size()).getLong(i) : code, read.column(names.size()).getLong(i),
                        "one customer, one code");
            }
            assertEquals(3, orders.column(0).chunks().size(), "150,000 orders in three chunks");
        }
    }
}
