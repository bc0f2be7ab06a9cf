package dev.starling.storage.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableRows;
import dev.starling.storage.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A load that fails near the end of a file of more than one chunk changes nothing, in memory or on disk. */
class FailedLoadTest {
    private static final TableSchema EVENTS = new TableSchema("events", List.of(
            new ColumnSchema("e_id", DataType.BIGINT, false),
            new ColumnSchema("e_kind", DataType.VARCHAR, false),
            new ColumnSchema("e_amount", DataType.decimal(10, 2), false),
            new ColumnSchema("e_day", DataType.DATE, false)),
            List.of("e_id"), List.of());
    private static final int ROWS = Table.CHUNK_ROWS + 4_464;
    private static final int BAD_LINE = ROWS - 3;

    @TempDir
    Path root;

    private Path data() {
        return root.resolve("data");
    }

    /** {@code rows} lines from {@code first}; line {@link #BAD_LINE} has a bad amount if {@code broken}. */
    private Path tbl(String name, int first, int rows, boolean broken) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            int id = first + i;
            String amount = broken && i + 1 == BAD_LINE ? "oops" : id % 1000 + ".25";
            text.append(id).append("|kind").append(id % 13).append('|').append(amount)
                    .append("|1996-01-").append(10 + id % 20).append("|\n");
        }
        return Files.writeString(root.resolve(name), text);
    }

    @Test
    void aFailedAppendLeavesTheOldVersion() throws IOException {
        Catalog catalog = Catalog.open(data());
        TableLoader loader = new TableLoader(catalog);
        loader.create(EVENTS, tbl("events.tbl", 0, ROWS, false), LoadFormat.TBL);
        Table before = catalog.require("events");
        List<List<Object>> rows = TableRows.of(before, catalog);

        var e = assertThrows(LoadException.class,
                () -> loader.append("events", tbl("more.tbl", ROWS, ROWS, true), LoadFormat.TBL));

        assertEquals("more.tbl line " + BAD_LINE + ", column 3 (e_amount): a field of 4 characters is not a DECIMAL(10,2)", e.getMessage());
        assertSame(before, catalog.require("events"));
        Catalog reopened = Catalog.open(data());
        assertEquals(rows, TableRows.of(reopened.require("events"), reopened));
        assertEquals(List.of("events.stbl"), files());
    }

    @Test
    void aFailedCreateLeavesNoTable() throws IOException {
        Catalog catalog = Catalog.open(data());

        assertThrows(LoadException.class,
                () -> new TableLoader(catalog).create(EVENTS, tbl("events.tbl", 0, ROWS, true), LoadFormat.TBL));

        assertTrue(catalog.table("events").isEmpty());
        assertTrue(Catalog.open(data()).table("events").isEmpty());
        assertEquals(List.of(), files());
    }

    @Test
    void aSuccessfulAppendIsDurable() throws IOException {
        Catalog catalog = Catalog.open(data());
        TableLoader loader = new TableLoader(catalog);
        loader.create(EVENTS, tbl("events.tbl", 0, ROWS, false), LoadFormat.TBL);
        loader.append("events", tbl("more.tbl", ROWS, 10, false), LoadFormat.TBL);

        Catalog reopened = Catalog.open(data());

        List<List<Object>> rows = TableRows.of(reopened.require("events"), reopened);
        assertEquals(ROWS + 10, rows.size());
        assertEquals(List.of((long) ROWS + 9, "kind" + (ROWS + 9) % 13, ((ROWS + 9) % 1000) * 100L + 25,
                java.time.LocalDate.of(1996, 1, 10 + (ROWS + 9) % 20).toEpochDay()), rows.getLast());
        assertEquals(TableRows.of(catalog.require("events"), catalog), rows);
    }

    /** The data directory's files but the lock file that marks it held. */
    private List<String> files() throws IOException {
        try (Stream<Path> files = Files.list(data())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.equals("starling.lock")).sorted().toList();
        }
    }
}
