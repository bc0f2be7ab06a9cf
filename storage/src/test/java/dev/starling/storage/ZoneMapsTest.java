package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ZoneMapsTest {

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
}
