package dev.starling.storage;

import static dev.starling.storage.SampleTables.DIM;
import static dev.starling.storage.SampleTables.DIM_ROWS;
import static dev.starling.storage.SampleTables.FACT;
import static dev.starling.storage.SampleTables.FACT_ROWS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableStoreTest {
    @TempDir
    Path dir;

    /** Writes the sample dimension and fact to {@link #dir} and returns them as built. */
    private List<Table> writeSamples() {
        Catalog catalog = Catalog.open(dir);
        Table dim = SampleTables.build(DIM, catalog, SampleTables.rows(DIM_ROWS, SampleTables::dimRow));
        catalog.put(dim);
        Table fact = SampleTables.build(FACT, catalog, SampleTables.rows(FACT_ROWS, SampleTables::factRow));
        catalog.put(fact);
        return List.of(dim, fact);
    }

    @Test
    void reopenedCatalogHasEveryValueZoneMapAndStatistic() {
        List<Table> written = writeSamples();

        Catalog reopened = Catalog.open(dir);

        assertEquals(Set.of("ssb.dim", "ssb.fact"), reopened.tables().stream().map(Table::name).collect(Collectors.toSet()));
        for (Table t : written) {
            assertSameStorage(t, reopened.require(t.name()));
        }
        Table fact = reopened.require("ssb.fact");
        assertEquals(2, fact.chunkCount());
        assertEquals(new Column.DenseReference("ssb.dim", "d_key"), fact.column("f_dim").denseReference());
        assertEquals(SampleTables.rows(FACT_ROWS, SampleTables::factRow), TableRows.of(fact, reopened));
        assertEquals(SampleTables.rows(DIM_ROWS, SampleTables::dimRow), TableRows.of(reopened.require("ssb.dim"), reopened));
        assertTrue(fact.column("f_price").chunks().get(0).values().isMapped(), "chunks are the file mapping, not copies");
    }

    @Test
    void appendToAReopenedTableKeepsItsRowsFirst() {
        writeSamples();
        Catalog reopened = Catalog.open(dir);
        Table base = reopened.require("ssb.fact");
        int more = 1_000;
        TableBuilder b = TableBuilder.appendingTo(base, reopened);
        reopened.commitAppend(base, SampleTables.fill(b, SampleTables.rows(FACT_ROWS, FACT_ROWS + more,
                SampleTables::factRow)).build());

        Catalog again = Catalog.open(dir);

        assertEquals(SampleTables.rows(FACT_ROWS + more, SampleTables::factRow),
                TableRows.of(again.require("ssb.fact"), again));
    }

    @Test
    void aReplacedVersionStaysReadable() {
        writeSamples();
        Catalog reopened = Catalog.open(dir);
        Table old = reopened.require("ssb.fact");
        reopened.drop("ssb.fact");
        reopened.put(SampleTables.build(FACT, reopened, SampleTables.rows(10, SampleTables::factRow)));

        assertEquals(SampleTables.rows(FACT_ROWS, SampleTables::factRow), TableRows.of(old, reopened));
        assertEquals(10, Catalog.open(dir).require("ssb.fact").rowCount());
    }

    @Test
    void dropDeletesTheFile() {
        writeSamples();
        Catalog catalog = Catalog.open(dir);
        catalog.drop("ssb.fact");

        assertFalse(Files.exists(dir.resolve("ssb.fact.stbl")));
        assertTrue(Catalog.open(dir).table("ssb.fact").isEmpty());
        assertTrue(Catalog.open(dir).table("ssb.dim").isPresent());
    }

    @Test
    void anEmptyTableRoundTrips() {
        Catalog catalog = Catalog.open(dir);
        Table empty = SampleTables.build(DIM, catalog, List.of());
        catalog.put(empty);

        Table reloaded = Catalog.open(dir).require("ssb.dim");

        assertSameStorage(empty, reloaded);
        assertEquals(0, reloaded.rowCount());
        assertEquals(0, reloaded.column("d_name").dictionary().size());
    }

    @Test
    void leftoverTemporaryFilesAreRemovedAndCommittedTablesIntact() throws IOException {
        List<Table> written = writeSamples();
        Files.write(dir.resolve("ssb.fact.stbl.tmp"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("gone.stbl.tmp"), new byte[0]);

        Catalog reopened = Catalog.open(dir);

        assertSameStorage(written.get(1), reopened.require("ssb.fact"));
        assertTrue(reopened.table("gone").isEmpty());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(Set.of("ssb.dim.stbl", "ssb.fact.stbl", DataDirectoryLock.FILE),
                    files.map(p -> p.getFileName().toString()).collect(Collectors.toSet()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"header", "chunk", "metadata"})
    void aDamagedFileFailsToOpenNamingIt(String where) throws IOException {
        writeSamples();
        Path file = dir.resolve("ssb.fact.stbl");
        byte[] bytes = Files.readAllBytes(file);
        int at = switch (where) {
            case "header" -> 20;
            case "chunk" -> 64 + 1000;
            default -> bytes.length - 10;
        };
        bytes[at] ^= 0x10;
        Files.write(file, bytes);

        var e = assertThrows(UncheckedIOException.class, () -> Catalog.open(dir));

        assertTrue(e.getMessage().contains("table file " + file + " is corrupt"), e.getMessage());
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    }

    @Test
    void aTruncatedFileFailsToOpenNamingIt() throws IOException {
        writeSamples();
        Path file = dir.resolve("ssb.fact.stbl");
        try (var ch = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() / 2);
        }

        var e = assertThrows(UncheckedIOException.class, () -> Catalog.open(dir));

        assertTrue(e.getMessage().contains("table file " + file + " is corrupt: metadata lies outside the file"),
                e.getMessage());
    }

    @Test
    void aFileThatIsNoTableFileIsRejected() throws IOException {
        Files.writeString(dir.resolve("notes.stbl"), "just some text that is long enough to have a header".repeat(2));

        var e = assertThrows(UncheckedIOException.class, () -> Catalog.open(dir));

        assertTrue(e.getMessage().contains(dir.resolve("notes.stbl") + " is not a Starling table file"), e.getMessage());
    }

    @Test
    void aRenamedFileIsRejected() throws IOException {
        writeSamples();
        Files.move(dir.resolve("ssb.dim.stbl"), dir.resolve("other.stbl"));

        var e = assertThrows(UncheckedIOException.class, () -> Catalog.open(dir));

        assertTrue(e.getMessage().contains("holds table ssb.dim; its name must be ssb.dim.stbl"), e.getMessage());
    }

    @Test
    void aMissingDimensionIsReported() throws IOException {
        writeSamples();
        Files.delete(dir.resolve("ssb.dim.stbl"));

        var e = assertThrows(UncheckedIOException.class, () -> Catalog.open(dir));

        assertTrue(e.getMessage().contains("table ssb.fact column f_dim references ssb.dim.d_key, which is not in"),
                e.getMessage());
    }

    @Test
    void fileNamesAreSafeAndDistinct() {
        assertEquals("ssb.customer.stbl", TableStore.fileName("ssb.customer"));
        assertEquals("a%2Fb.stbl", TableStore.fileName("a/b"));
        assertEquals("%2E..stbl", TableStore.fileName(".."));
        assertEquals("a%25b.stbl", TableStore.fileName("a%b"));
        assertEquals("gr%C3%B6%C3%9Fe.stbl", TableStore.fileName("größe"));
    }

    @Test
    void tablesWithUnusualNamesRoundTrip() {
        Catalog catalog = Catalog.open(dir);
        TableSchema schema = new TableSchema("../Weird Name", DIM.columns(), List.of(), List.of());
        catalog.put(SampleTables.build(schema, catalog, SampleTables.rows(3, SampleTables::dimRow)));

        Catalog reopened = Catalog.open(dir);

        assertEquals(SampleTables.rows(3, SampleTables::dimRow), TableRows.of(reopened.require("../weird name"), reopened));
        assertTrue(Files.exists(dir.resolve("%2E.%2Fweird%20name.stbl")));
    }

    /** Same schema, statistics, dictionaries and chunk bytes, zone maps and NULLs. */
    static void assertSameStorage(Table expected, Table actual) {
        assertEquals(expected.schema(), actual.schema());
        assertEquals(expected.rowCount(), actual.rowCount());
        for (int c = 0; c < expected.columns().size(); c++) {
            Column e = expected.column(c);
            Column a = actual.column(c);
            assertEquals(e.denseReference(), a.denseReference(), e.name());
            assertEquals(e.stats(), a.stats(), e.name());
            assertArrayEquals(e.dictionary() == null ? null : e.dictionary().toArray(),
                    a.dictionary() == null ? null : a.dictionary().toArray(), e.name());
            assertEquals(e.chunks().size(), a.chunks().size(), e.name());
            for (int k = 0; k < e.chunks().size(); k++) {
                ColumnChunk ec = e.chunks().get(k);
                ColumnChunk ac = a.chunks().get(k);
                String where = e.name() + " chunk " + k;
                assertEquals(ec.rows(), ac.rows(), where);
                assertEquals(ec.physical(), ac.physical(), where);
                assertEquals(ec.zoneMap(), ac.zoneMap(), where);
                long bytes = (long) ec.rows() * ec.physical().width;
                assertEquals(-1, ec.values().asSlice(0, bytes).mismatch(ac.values()), where);
                assertEquals(ec.nulls() == null, ac.nulls() == null, where);
                if (ec.nulls() != null) {
                    assertEquals(-1, ec.nulls().asSlice(0, ec.rows()).mismatch(ac.nulls()), where);
                }
            }
        }
    }
}
