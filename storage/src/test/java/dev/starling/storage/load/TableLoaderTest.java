package dev.starling.storage.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableRows;
import dev.starling.storage.TableSchema;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TableLoaderTest {
    private static final TableSchema ORDERS = new TableSchema("orders", List.of(
            new ColumnSchema("o_key", DataType.INTEGER, false),
            new ColumnSchema("o_total", DataType.decimal(15, 2), false),
            new ColumnSchema("o_date", DataType.DATE, false),
            new ColumnSchema("o_comment", DataType.VARCHAR, false),
            new ColumnSchema("o_big", DataType.BIGINT, true),
            new ColumnSchema("o_ratio", DataType.DOUBLE, true),
            new ColumnSchema("o_paid", DataType.BOOLEAN, true),
            new ColumnSchema("o_note", DataType.varchar(10), true)),
            List.of("o_key"), List.of());

    private static final TableSchema NATION = new TableSchema("nation", List.of(
            new ColumnSchema("n_key", DataType.INTEGER, false),
            new ColumnSchema("n_name", DataType.VARCHAR, false)),
            List.of("n_key"), List.of());
    private static final TableSchema CUSTOMER = new TableSchema("customer", List.of(
            new ColumnSchema("c_key", DataType.INTEGER, false),
            new ColumnSchema("c_nation", DataType.INTEGER, false)),
            List.of("c_key"), List.of(ForeignKey.of("c_nation", "nation", "n_key")));

    @TempDir
    Path dir;

    private final Catalog catalog = Catalog.inMemory();
    private final TableLoader loader = new TableLoader(catalog);

    private static long day(String iso) {
        return LocalDate.parse(iso).toEpochDay();
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void loadsATblFile() throws IOException {
        Path file = dir.resolve("orders.tbl");
        Files.writeString(file, """
                1|123.45|1996-01-02|fast, "quoted" text|9000000000|0.5|t|x|
                2|-0.5|1970-01-01|ünïcödé|||||
                3|7|1998-12-31| |-1|-1e3|0| y |
                """);

        LoadResult result = loader.create(ORDERS, file, LoadFormat.forFile(file));

        assertEquals("orders", result.table());
        assertEquals(3, result.rowsLoaded());
        assertEquals(List.of(
                        row(1L, 12345L, day("1996-01-02"), "fast, \"quoted\" text", 9_000_000_000L, 0.5, true, "x"),
                        row(2L, -50L, 0L, "ünïcödé", null, null, null, null),
                        row(3L, 700L, day("1998-12-31"), " ", -1L, -1000.0, false, " y ")),
                TableRows.of(catalog.require("orders"), catalog));
    }

    @Test
    void loadsACsvFile() throws IOException {
        Path file = dir.resolve("orders.csv");
        Files.writeString(file, "\uFEFFo_key,o_total,o_date,o_comment,o_big,o_ratio,o_paid,o_note\r\n"
                + "1,1.5,1996-01-02,\"a, \"\"b\"\"\nc|d\",,,,\"\"\r\n"
                + "2,2,1996-01-03,plain,5,2.5,FALSE,\"\"\"\"\n"
                + "3,3,1996-01-04,\"\",,,,");

        assertEquals(3, loader.create(ORDERS, file, LoadFormat.forFile(file)).rowsLoaded());

        assertEquals(List.of(
                        row(1L, 150L, day("1996-01-02"), "a, \"b\"\nc|d", null, null, null, ""),
                        row(2L, 200L, day("1996-01-03"), "plain", 5L, 2.5, false, "\""),
                        row(3L, 300L, day("1996-01-04"), "", null, null, null, null)),
                TableRows.of(catalog.require("orders"), catalog));
    }

    @Test
    void aCustomNullTextMakesEmptyFieldsText() {
        LoadFormat format = new LoadFormat('\t', false, false, false, "\\N");

        loader.create(NATION, new StringReader("1\t\n"), "nation.tsv", format);

        assertEquals(List.of(row(1L, "")), TableRows.of(catalog.require("nation"), catalog));
        var e = assertThrows(LoadException.class, () -> loader.append("nation",
                new StringReader("3\t\\N\n"), "more.tsv", format));
        assertEquals("more.tsv line 1, column 2 (n_name): '\\N' (NULL) in a NOT NULL column", e.getMessage());
    }

    @Test
    void emptyFilesMakeEmptyTables() {
        loader.create(NATION, new StringReader(""), "n.tbl", LoadFormat.TBL);
        loader.create(new TableSchema("a", NATION.columns(), List.of(), List.of()), new StringReader(""), "a.csv",
                LoadFormat.CSV);
        loader.create(new TableSchema("b", NATION.columns(), List.of(), List.of()),
                new StringReader("n_key,n_name\n"), "b.csv", LoadFormat.CSV);

        for (String t : List.of("nation", "a", "b")) {
            assertEquals(0, catalog.require(t).rowCount(), t);
        }
    }

    @Test
    void appendKeepsTheOldRowsFirst() {
        loader.create(NATION, new StringReader("5|five|\n1|one|\n"), "n1.tbl", LoadFormat.TBL);

        LoadResult result = loader.append("nation", new StringReader("3|three|\n"), "n2.tbl", LoadFormat.TBL);

        assertEquals(1, result.rowsLoaded());
        assertEquals(List.of(row(5L, "five"), row(1L, "one"), row(3L, "three")),
                TableRows.of(catalog.require("nation"), catalog));
    }

    @Test
    void foreignKeysBecomeDenseCodes() {
        loader.create(NATION, new StringReader("10|a|\n20|b|\n"), "nation.tbl", LoadFormat.TBL);

        loader.create(CUSTOMER, new StringReader("1|20|\n2|10|\n"), "customer.tbl", LoadFormat.TBL);

        assertTrue(catalog.require("customer").column("c_nation").isDenseCoded());
        assertEquals(List.of(row(1L, 20L), row(2L, 10L)), TableRows.of(catalog.require("customer"), catalog));
    }

    @Test
    void aForeignKeyWithoutItsRowIsAnErrorWithItsPlace() {
        loader.create(NATION, new StringReader("10|a|\n"), "nation.tbl", LoadFormat.TBL);

        var e = assertThrows(LoadException.class, () -> loader.create(CUSTOMER,
                new StringReader("1|10|\n2|30|\n"), "customer.tbl", LoadFormat.TBL));

        assertEquals("customer.tbl line 2, column 2 (c_nation): c_nation=30 has no match in nation.n_key", e.getMessage());
        assertTrue(catalog.table("customer").isEmpty());
    }

    static Stream<Arguments> malformedOrders() {
        String ok = "1|1.00|1996-01-02|c|||||\n";
        return Stream.of(
                Arguments.of(ok + "2|abc|1996-01-02|c|||||\n", 2, 2, "o_total", "a field of 3 characters is not a DECIMAL(15,2)"),
                Arguments.of(ok + ok + "3|1.234|1996-01-02|c|||||\n", 3, 2, "o_total",
                        "a field of 5 characters has more than 2 decimal places, the scale of DECIMAL(15,2)"),
                Arguments.of("1|12345678901234|1996-01-02|c|||||\n", 1, 2, "o_total",
                        "a field of 14 characters is out of range for DECIMAL(15,2)"),
                Arguments.of("x|1|1996-01-02|c|||||\n", 1, 1, "o_key", "a field of 1 character is not an INTEGER"),
                Arguments.of("3000000000|1|1996-01-02|c|||||\n", 1, 1, "o_key",
                        "a field of 10 characters is out of range for INTEGER"),
                Arguments.of("1|1|1996-02-30|c|||||\n", 1, 3, "o_date", "a field of 10 characters is not a valid date"),
                Arguments.of("1|1|02/01/1996|c|||||\n", 1, 3, "o_date", "a field of 10 characters is not a DATE (yyyy-MM-dd)"),
                Arguments.of("1|1|1996-01-02|c|1.5||||\n", 1, 5, "o_big", "a field of 3 characters is not a BIGINT"),
                Arguments.of("1|1|1996-01-02|c||half|||\n", 1, 6, "o_ratio", "a field of 4 characters is not a DOUBLE"),
                Arguments.of("1|1|1996-01-02|c|||yes||\n", 1, 7, "o_paid", "a field of 3 characters is not a BOOLEAN"),
                Arguments.of(ok + "2|1|1996-01-02||||||\n", 2, 4, "o_comment",
                        "empty field (NULL) in a NOT NULL column"),
                Arguments.of(ok + "2|1|1996-01-02|c||||\n", 2, 0, null, "expected 8 fields, found 7"),
                Arguments.of(ok + "2|1|1996-01-02|c||||||\n", 2, 0, null, "expected 8 fields, found 9"),
                Arguments.of(ok + "2|1|1996-01-02|c||||x\n", 2, 0, null, "the line does not end with '|'"),
                Arguments.of(ok + "\n" + ok, 2, 0, null, "the line is empty"));
    }

    @ParameterizedTest
    @MethodSource("malformedOrders")
    void aMalformedTblNamesLineAndColumn(String text, long line, int column, String columnName, String problem) {
        var e = assertThrows(LoadException.class,
                () -> loader.create(ORDERS, new StringReader(text), "orders.tbl", LoadFormat.TBL));

        String where = column > 0 ? ", column " + column + " (" + columnName + ")" : "";
        assertEquals("orders.tbl line " + line + where + ": " + problem, e.getMessage());
        assertEquals("orders.tbl", e.source());
        assertEquals(line, e.line());
        assertEquals(column, e.column());
        assertEquals(columnName, e.columnName());
        assertTrue(catalog.table("orders").isEmpty());
    }

    @Test
    void csvErrorsCountPhysicalLines() {
        String header = "n_key,n_name\n";
        var unclosed = assertThrows(LoadException.class, () -> loader.create(NATION,
                new StringReader(header + "1,\"multi\nline\"\n2,\"open\n"), "n.csv", LoadFormat.CSV));
        assertEquals("n.csv line 4, column 2 (n_name): the quoted field is not closed", unclosed.getMessage());

        var afterQuote = assertThrows(LoadException.class, () -> loader.create(NATION,
                new StringReader(header + "1,\"a\nb\"c\n"), "n.csv", LoadFormat.CSV));
        assertEquals("n.csv line 3, column 2 (n_name): unexpected 'c' after the closing quote", afterQuote.getMessage());

        var badValue = assertThrows(LoadException.class, () -> loader.create(NATION,
                new StringReader(header + "1,\"a\nb\"\nx,c\n"), "n.csv", LoadFormat.CSV));
        assertEquals("n.csv line 4, column 1 (n_key): a field of 1 character is not an INTEGER", badValue.getMessage());

        var badHeader = assertThrows(LoadException.class, () -> loader.create(NATION,
                new StringReader("n_key\n1,a\n"), "n.csv", LoadFormat.CSV));
        assertEquals("n.csv line 1: the header has 1 fields, table nation 2 columns", badHeader.getMessage());
    }

    @Test
    void invalidUtf8IsAnError() throws IOException {
        Path file = dir.resolve("nation.tbl");
        Files.write(file, new byte[] {'1', '|', (byte) 0xC3, (byte) 0x28, '|', '\n'});

        var e = assertThrows(LoadException.class, () -> loader.create(NATION, file, LoadFormat.TBL));

        assertTrue(e.getMessage().startsWith("nation.tbl line 1: not valid UTF-8"), e.getMessage());
    }

    @Test
    void createRefusesAnExistingTable() {
        loader.create(NATION, new StringReader("1|a|\n"), "n.tbl", LoadFormat.TBL);

        var e = assertThrows(IllegalArgumentException.class,
                () -> loader.create(NATION, new StringReader("2|b|\n"), "n.tbl", LoadFormat.TBL));

        assertEquals("table nation already exists", e.getMessage());
        assertEquals(1, catalog.require("nation").rowCount());
    }

    @Test
    void aMissingFileIsNamed() {
        Path file = dir.resolve("none.tbl");
        var e = assertThrows(UncheckedIOException.class, () -> loader.create(NATION, file, LoadFormat.TBL));
        assertEquals("cannot read " + file + ": no such file", e.getMessage());
    }

    @Test
    void theFormatFollowsTheExtension() {
        assertEquals(LoadFormat.TBL, LoadFormat.forFile(Path.of("data/lineitem.tbl")));
        assertEquals(LoadFormat.CSV, LoadFormat.forFile(Path.of("x.CSV")));
        assertEquals("cannot tell the format of x.txt: extension '.txt' is neither .tbl nor .csv",
                assertThrows(IllegalArgumentException.class, () -> LoadFormat.forFile(Path.of("x.txt"))).getMessage());
        assertEquals("cannot tell the format of lineitem: it has no extension (expected .tbl or .csv)",
                assertThrows(IllegalArgumentException.class, () -> LoadFormat.forFile(Path.of("lineitem"))).getMessage());
    }
}
