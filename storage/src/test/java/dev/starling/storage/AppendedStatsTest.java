package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A small append keeps the statistics it can keep exactly from zone maps (rows, NULLs, minimum,
 * maximum), bounds the distinct values from above and keeps the counted most frequent values,
 * without reading the rows before it; once the rows appended since the last count pass a tenth of
 * those counted, every value is counted again.
 */
class AppendedStatsTest {
    private static final TableSchema SCHEMA = new TableSchema("t", List.of(new ColumnSchema("n", DataType.BIGINT, true),
            new ColumnSchema("s", DataType.VARCHAR, true)), List.of(), List.of());

    /**
     * {@code table} with rows {@code from} to {@code to} appended: n = i % 1000 below a million, i
     * from there (NULL every 97th), s = 's' + i % 10.
     */
    private static Table append(Table table, long from, long to) {
        TableBuilder b = table == null ? new TableBuilder(SCHEMA, null) : TableBuilder.appendingTo(table, null);
        for (long i = from; i < to; i++) {
            if (i % 97 == 0) {
                b.setNull(0);
            } else {
                b.setLong(0, i < 1_000_000 ? i % 1000 : i);
            }
            b.setString(1, "s" + i % 10);
            b.endRow();
        }
        return b.build();
    }

    @Test
    void aSmallAppendKeepsWhatZoneMapsTellAndBoundsTheRest() {
        Table base = append(null, 0, 200_000);
        ColumnStats before = base.column(0).stats();
        assertTrue(before.distinctExact());
        assertEquals(200_000, before.measuredRows());
        assertEquals(1000, before.distinct());

        // five rows of values seen before, one of them NULL (97 * 52 = 5044)
        Table appended = append(base, 5040, 5045);
        ColumnStats after = appended.column(0).stats();
        assertEquals(200_005, after.rows());
        assertEquals(before.nulls() + 1, after.nulls());
        assertEquals(0, after.min());
        assertEquals(999, after.max());
        assertEquals(200_000, after.measuredRows(), "the values were not counted again");
        assertFalse(after.distinctExact());
        // the bound counts again the values of the last chunk, which the append reopened
        assertTrue(after.distinct() >= 1000 && after.distinct() <= 2000, "an upper bound: " + after.distinct());
        assertEquals(before.mostFrequent(), after.mostFrequent());

        ColumnStats past = append(appended, 1_000_000, 1_000_003).column(0).stats();
        assertEquals(1_000_002, past.max(), "a maximum past the counted values comes from the zone maps");
        assertEquals(200_000, past.measuredRows());
    }

    @Test
    void appendsPastATenthOfTheCountedRowsCountEveryValueAgain() {
        Table table = append(null, 0, 100_000);
        table = append(table, 100_000, 105_000);
        assertEquals(100_000, table.column(0).stats().measuredRows());
        table = append(table, 105_000, 111_000);
        ColumnStats counted = table.column(0).stats();
        assertEquals(111_000, counted.measuredRows());
        assertTrue(counted.distinctExact());
        assertEquals(1000, counted.distinct());
        assertEquals(10, table.column(1).stats().distinct());
    }
}
