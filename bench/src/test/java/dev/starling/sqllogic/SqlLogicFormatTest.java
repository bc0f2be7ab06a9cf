package dev.starling.sqllogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.sqllogic.SqlLogicRecord.Line;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableSchema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code .slt} format: records, literal rows and table declarations, and the errors for malformed ones. */
class SqlLogicFormatTest {

    @Test
    void splitsRecordsAndKeepsTheirLines() {
        String text = """
                # a comment
                table t (a INTEGER,
                  b VARCHAR)
                ----
                1, 'x'

                query no-duckdb: a reason
                SELECT a
                # between lines
                FROM t
                ----
                1

                error not found
                SELECT nope FROM t
                """;
        assertEquals(List.of(
                new SqlLogicRecord.Table(2, "t (a INTEGER,\n  b VARCHAR)", List.of(new Line(5, "1, 'x'"))),
                new SqlLogicRecord.Query(7, "SELECT a\nFROM t", List.of(new Line(12, "1")), "a reason"),
                new SqlLogicRecord.Error(14, "SELECT nope FROM t", "not found")),
                SqlLogicParser.parse("f.slt", text));
    }

    @Test
    void malformedRecordsNameFileAndLine() {
        assertMalformed("f.slt:2: a query needs a ---- line", "\nquery\nSELECT 1\n");
        assertMalformed("f.slt:1: a record starts with 'table', 'query' or 'error', not 'select'", "select 1\n");
        assertMalformed("f.slt:1: write 'error <message fragment>'", "error\nSELECT 1\n");
        assertMalformed("f.slt:1: the only query option is 'no-duckdb:", "query rowsort\nSELECT 1\n----\n");
        assertMalformed("f.slt:1: the record has no SQL", "query\n----\n1\n");
    }

    private static void assertMalformed(String messageStart, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SqlLogicParser.parse("f.slt", text));
        assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    }

    @Test
    void literalRowsKeepNullEmptyStringAndDelimitersApart() {
        LiteralRow row = LiteralRow.parse(" NULL, '', 'it''s, a|b', 1.50 ,2000-02-29, true, 'say \"hi\"' ", "f.slt:1");
        assertEquals(",\"\",\"it's, a|b\",1.50,2000-02-29,true,\"say \"\"hi\"\"\"", row.toCsv());
        assertEquals(Arrays.asList(null, "", "it's, a|b", new BigDecimal("1.50"), LocalDate.of(2000, 2, 29), true,
                "say \"hi\""), row.toValues("f.slt:1"));
        assertEquals(List.of(Double.NaN, Double.NEGATIVE_INFINITY),
                LiteralRow.parse("NaN, -Infinity", "f.slt:1").toValues("f.slt:1"));
    }

    @Test
    void malformedLiteralRowsSayWhere() {
        assertEquals("f.slt:3: unterminated string starting at column 4", assertThrows(IllegalArgumentException.class,
                () -> LiteralRow.parse("1, 'abc", "f.slt:3")).getMessage());
        assertEquals("f.slt:3: empty value at column 3 (write NULL or '')", assertThrows(IllegalArgumentException.class,
                () -> LiteralRow.parse("1,, 2", "f.slt:3")).getMessage());
        assertEquals("f.slt:3: expected ',' after the string at column 1", assertThrows(IllegalArgumentException.class,
                () -> LiteralRow.parse("'a' 'b'", "f.slt:3")).getMessage());
        assertEquals("f.slt:3: 'abc' is not a number, date, boolean or NULL (quote strings: 'text')",
                assertThrows(IllegalArgumentException.class,
                        () -> LiteralRow.parse("abc", "f.slt:3").toValues("f.slt:3")).getMessage());
    }

    @Test
    void tableDeclarationsGiveColumnsAndKeys() {
        TableSchema schema = TableDeclaration.parse("""
                Fact (id INTEGER PRIMARY KEY, k BIGINT REFERENCES dim (key), amount DECIMAL(8, 2) NOT NULL,
                      note VARCHAR(20), line INTEGER, FOREIGN KEY (line) REFERENCES lines (l), PRIMARY KEY (line))""");
        assertEquals(new TableSchema("fact", List.of(
                new ColumnSchema("id", DataType.INTEGER, false),
                new ColumnSchema("k", DataType.BIGINT, true),
                new ColumnSchema("amount", DataType.decimal(8, 2), false),
                new ColumnSchema("note", DataType.varchar(20), true),
                new ColumnSchema("line", DataType.INTEGER, false)),
                List.of("id", "line"),
                List.of(ForeignKey.of("k", "dim", "key"), ForeignKey.of("line", "lines", "l"))), schema);
        assertEquals("expected 'name (column TYPE, ...)', got: t a INTEGER", assertThrows(IllegalArgumentException.class,
                () -> TableDeclaration.parse("t a INTEGER")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TableDeclaration.parse("t (a)"));
        assertThrows(IllegalArgumentException.class, () -> TableDeclaration.parse("t (a WIDGET)"));
    }
}
