package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableConcat;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parts built apart and concatenated hold exactly what one builder given all rows holds. */
class TableConcatTest {
    private static final TableSchema DIM = new TableSchema("dim", List.of(
            new ColumnSchema("d_key", DataType.INTEGER, false)), List.of("d_key"), List.of());
    private static final TableSchema FACT = new TableSchema("fact", List.of(
            new ColumnSchema("f_id", DataType.BIGINT, false),
            new ColumnSchema("f_dim", DataType.INTEGER, false),
            new ColumnSchema("f_tag", DataType.varchar(10), true),
            new ColumnSchema("f_price", DataType.decimal(15, 2), true)),
            List.of("f_id"), List.of(ForeignKey.of("f_dim", "dim", "d_key")));

    @Test
    void partsBecomeTheTableOneBuilderMakes() {
        Catalog catalog = catalogWithDimension();
        // Sizes that leave partial chunks inside the sequence: 70,000 + 5 + 65,536 rows.
        int[] sizes = {70_000, 5, Table.CHUNK_ROWS};
        List<Table> parts = new ArrayList<>();
        TableBuilder whole = new TableBuilder(FACT, catalog);
        int row = 0;
        for (int size : sizes) {
            TableBuilder part = new TableBuilder(FACT, catalog);
            for (int i = 0; i < size; i++, row++) {
                addRow(part, row);
                addRow(whole, row);
            }
            parts.add(part.build());
        }

        Table concatenated = TableConcat.concat(parts);
        Table expected = whole.build();

        assertEquals(expected.rowCount(), concatenated.rowCount());
        assertEquals(List.of(Table.CHUNK_ROWS, Table.CHUNK_ROWS, 4_469),
                concatenated.column(0).chunks().stream().map(ColumnChunk::rows).toList());
        assertEquals(TableDigest.of(expected), TableDigest.of(concatenated));
        for (int c = 0; c < FACT.columns().size(); c++) {
            assertEquals(expected.column(c).stats(), concatenated.column(c).stats(), FACT.column(c).name());
            assertEquals(expected.column(c).denseReference(), concatenated.column(c).denseReference());
            for (int k = 0; k < expected.chunkCount(); k++) {
                assertEquals(expected.column(c).chunks().get(k).zoneMap(), concatenated.column(c).chunks().get(k).zoneMap());
            }
        }
    }

    @Test
    void onePartIsTheTable() {
        TableBuilder b = new TableBuilder(FACT, catalogWithDimension());
        addRow(b, 0);
        Table part = b.build();
        assertSame(part, TableConcat.concat(List.of(part)));
    }

    @Test
    void rejectsPartsOfDifferentTables() {
        Catalog catalog = catalogWithDimension();
        Table fact = new TableBuilder(FACT, catalog).build();
        Table dim = catalog.require("dim");
        assertThrows(IllegalArgumentException.class, () -> TableConcat.concat(List.of(fact, dim)));
        assertThrows(IllegalArgumentException.class, () -> TableConcat.concat(List.of()));
    }

    private static Catalog catalogWithDimension() {
        Catalog catalog = Catalog.inMemory();
        TableBuilder dim = new TableBuilder(DIM, catalog);
        for (int k = 0; k < 100; k++) {
            dim.setLong(0, 1000 - k);
            dim.endRow();
        }
        catalog.put(dim.build());
        return catalog;
    }

    /** Tags first seen in later parts and NULLs test the dictionary merge; prices the plain copy. */
    private static void addRow(TableBuilder b, int row) {
        b.setLong(0, row);
        b.setLong(1, 1000 - row % 100);
        if (row % 7 == 0) {
            b.setNull(2);
        } else {
            b.setString(2, "t" + (row / 9000) % 13 + "-" + row % 3);
        }
        if (row % 11 == 0) {
            b.setNull(3);
        } else {
            b.setLong(3, row * 101L);
        }
        b.endRow();
    }
}
