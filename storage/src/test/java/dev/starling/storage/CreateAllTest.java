package dev.starling.storage;

import static dev.starling.storage.SampleTables.DIM;
import static dev.starling.storage.SampleTables.DIM_ROWS;
import static dev.starling.storage.SampleTables.FACT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.gen.SsbGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables created all or none (GENERATE's, the demo's): a failure half-way drops those created,
 * the fact that references the dimension first; a crash half-way leaves the record of the
 * creation, and opening the data directory deletes the tables it names and nothing else.
 */
class CreateAllTest {
    @TempDir
    Path dir;

    @Test
    void aFailureHalfWayLeavesNone() {
        try (Catalog catalog = Catalog.open(dir)) {
            catalog.put(SampleTables.build(new TableSchema("kept", List.of(new ColumnSchema("k", DataType.BIGINT, false)),
                    List.of(), List.of()), catalog, List.of(List.of(1L))));
            IllegalStateException failure = assertThrows(IllegalStateException.class,
                    () -> catalog.createAll(List.of(DIM.name(), FACT.name(), "ssb.third"), () -> {
                        catalog.put(SampleTables.build(DIM, catalog, SampleTables.rows(DIM_ROWS, SampleTables::dimRow)));
                        catalog.put(SampleTables.build(FACT, catalog, SampleTables.rows(100, SampleTables::factRow)));
                        throw new IllegalStateException("the third table failed");
                    }));
            assertEquals("the third table failed", failure.getMessage());
            assertEquals(Set.of("kept"), names(catalog));
        }
        try (Catalog reopened = Catalog.open(dir)) {
            assertEquals(Set.of("kept"), names(reopened));
        }
        assertFalse(Files.exists(dir.resolve(TableStore.INTENT)));
    }

    @Test
    void aCrashHalfWayLeavesNoneAfterOpening() throws Exception {
        try (Catalog catalog = Catalog.open(dir)) {
            catalog.put(SampleTables.build(DIM, catalog, SampleTables.rows(DIM_ROWS, SampleTables::dimRow)));
            catalog.put(SampleTables.build(new TableSchema("kept", List.of(new ColumnSchema("k", DataType.BIGINT, false)),
                    List.of(), List.of()), catalog, List.of(List.of(1L))));
        }
        // what a crash after the dimension's commit leaves: the record naming both, one committed
        Files.writeString(dir.resolve(TableStore.INTENT), DIM.name() + "\n" + FACT.name());
        try (Catalog reopened = Catalog.open(dir)) {
            assertEquals(Set.of("kept"), names(reopened));
        }
        assertFalse(Files.exists(dir.resolve(TableStore.INTENT)));
    }

    @Test
    void generateIsAllOrNone() {
        try (Catalog catalog = Catalog.open(dir)) {
            SsbGenerator.generate(catalog, 0.001, "s");
            assertEquals(Set.of("s.dwdate", "s.customer", "s.supplier", "s.part", "s.lineorder"), names(catalog));
            IllegalArgumentException exists = assertThrows(IllegalArgumentException.class,
                    () -> catalog.createAll(List.of("s.part"), () -> { }));
            assertEquals("table s.part already exists", exists.getMessage());
        }
        assertFalse(Files.exists(dir.resolve(TableStore.INTENT)), "a finished generation leaves no record");
        try (Catalog reopened = Catalog.open(dir)) {
            assertTrue(reopened.table("s.lineorder").isPresent());
        }
    }

    /** A creation started inside another joins it: a failure in the second leaves neither's tables. */
    @Test
    void aCreationInsideAnotherIsPartOfIt() {
        try (Catalog catalog = Catalog.open(dir)) {
            assertThrows(IllegalStateException.class, () -> catalog.createAll(List.of(), () -> {
                SsbGenerator.generate(catalog, 0.001, "first");
                catalog.createAll(List.of("second.t"), () -> {
                    catalog.put(SampleTables.build(new TableSchema("second.t", List.of(new ColumnSchema("k",
                            DataType.BIGINT, false)), List.of(), List.of()), catalog, List.of(List.of(1L))));
                    throw new IllegalStateException("the second failed");
                });
            }));
            assertEquals(Set.of(), names(catalog));
        }
        assertFalse(Files.exists(dir.resolve(TableStore.INTENT)));
    }

    private static Set<String> names(Catalog catalog) {
        return catalog.tables().stream().map(Table::name).collect(Collectors.toSet());
    }
}
