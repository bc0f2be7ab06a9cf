package dev.starling.exec.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class QuantitiesTest {
    @Test
    void countsKeepThreeSignificantFigures() {
        assertEquals("0", Quantities.count(0.2));
        assertEquals("999", Quantities.count(999));
        assertEquals("1.00K", Quantities.count(999.6));
        assertEquals("60.2K", Quantities.count(60_175));
        assertEquals("150K", Quantities.count(150_000));
        assertEquals("6.00M", Quantities.count(5_999_989));
        assertEquals("1.50G", Quantities.count(1.5e9));
    }

    @Test
    void bytesUseDecimalUnits() {
        assertEquals("512 B", Quantities.bytes(512));
        assertEquals("1.20 MB", Quantities.bytes(1_200_000));
        assertEquals("77.3 GB", Quantities.bytes(77.3e9));
    }
}
