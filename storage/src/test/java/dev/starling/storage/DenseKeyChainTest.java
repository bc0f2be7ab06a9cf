package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A primary key that is itself a dense foreign key stores rows of the table it references; a
 * third table referencing that key must still be keyed by its values.
 */
class DenseKeyChainTest {
    private static final TableSchema DIM = new TableSchema("dim",
            List.of(new ColumnSchema("k", DataType.INTEGER, false)), List.of("k"), List.of());
    private static final TableSchema EXT = new TableSchema("ext",
            List.of(new ColumnSchema("ek", DataType.INTEGER, false)), List.of("ek"),
            List.of(ForeignKey.of("ek", "dim", "k")));
    private static final TableSchema LEAF = new TableSchema("leaf",
            List.of(new ColumnSchema("lk", DataType.INTEGER, false)), List.of(),
            List.of(ForeignKey.of("lk", "ext", "ek")));

    /** dim keys 100..104; ext holds three of them in another order, so rows and values differ. */
    private static Catalog chain() {
        Catalog catalog = Catalog.inMemory();
        catalog.put(table(DIM, catalog, 100, 101, 102, 103, 104));
        catalog.put(table(EXT, catalog, 103, 101, 104));
        return catalog;
    }

    @Test
    void referencesADenseKeyByItsValue() {
        Catalog catalog = chain();
        assertTrue(catalog.require("ext").column("ek").isDenseCoded());
        Table leaf = table(LEAF, catalog, 101, 104, 103, 101);
        Column lk = leaf.column("lk");
        assertTrue(lk.isDenseCoded());
        assertEquals(new Column.DenseReference("ext", "ek"), lk.denseReference());
        // Codes are rows of ext: 103 is row 0, 101 row 1, 104 row 2.
        ColumnChunk chunk = lk.chunks().get(0);
        assertEquals(List.of(1L, 2L, 0L, 1L), List.of(chunk.getAsLong(0), chunk.getAsLong(1), chunk.getAsLong(2),
                chunk.getAsLong(3)));
    }

    @Test
    void aValueMissingFromTheDenseKeyIsStillRejected() {
        Catalog catalog = chain();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> table(LEAF, catalog, 100));
        assertTrue(e.getMessage().contains("lk=100"), e.getMessage());
    }

    private static Table table(TableSchema schema, Catalog catalog, long... keys) {
        TableBuilder b = new TableBuilder(schema, catalog);
        for (long k : keys) {
            b.setLong(0, k);
            b.endRow();
        }
        return b.build();
    }
}
