package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ZoneMapsTest {

    private static ZoneMap zoneOfLongs(long... values) {
        TableSchema schema = new TableSchema("t", List.of(new ColumnSchema("n", DataType.BIGINT, false)),
                List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, null);
        for (long v : values) {
            b.setLong(0, v);
            b.endRow();
        }
        return b.build().column(0).chunks().get(0).zoneMap();
    }

    private static ZoneMap zoneOfDoubles(double... values) {
        TableSchema schema = new TableSchema("t", List.of(new ColumnSchema("d", DataType.DOUBLE, false)),
                List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, null);
        for (double v : values) {
            b.setDouble(0, v);
            b.endRow();
        }
        return b.build().column(0).chunks().get(0).zoneMap();
    }

    @Test
    void rangeOfOrdinaryDoublesPrunes() {
        ZoneMap z = zoneOfDoubles(1.5, -2.0, 7.25);
        assertEquals(-2.0, z.minDouble());
        assertEquals(7.25, z.maxDouble());
        assertFalse(z.mayContainRange(8.0, 9.0));
        assertTrue(z.mayContainRange(7.0, 9.0));
    }

    @Test
    void chunkWithNaNIsNeverSkipped() {
        ZoneMap z = zoneOfDoubles(1.0, Double.NaN, 2.0);
        assertTrue(z.mayContainRange(100.0, 200.0));
        assertTrue(z.mayContainRange(-5.0, -4.0));
    }

    @Test
    void smallValuesAChunkLacksAreKnownOnlyWhereAllAreSmall() {
        ZoneMap small = zoneOfLongs(3, 9, 63, 9);
        assertTrue(small.mayContain(3) && small.mayContain(9) && small.mayContain(63));
        assertFalse(small.mayContain(4), "4 lies within [3, 63] but the chunk lacks it");
        assertFalse(small.mayContain(64));
        ZoneMap wide = zoneOfLongs(3, 9, 64);
        assertEquals(0, wide.absentSmall());
        assertTrue(wide.mayContain(4), "a chunk with a value past 63 knows no set");
        ZoneMap negative = zoneOfLongs(-1, 3);
        assertEquals(0, negative.absentSmall());
        assertTrue(negative.mayContain(2));
    }

    @Test
    void aZoneMapWrittenBeforeItsSetReadsAsKnowingNone() throws Exception {
        // table file format version 1's zone map, as its JSON metadata holds it
        ZoneMap old = com.fasterxml.jackson.databind.json.JsonMapper.builder().build().readValue(
                "{\"min\":3,\"max\":63,\"minDouble\":3.0,\"maxDouble\":63.0,\"nonNull\":4,\"nulls\":0}", ZoneMap.class);
        assertEquals(0, old.absentSmall());
        assertTrue(old.mayContain(4));
    }
}
