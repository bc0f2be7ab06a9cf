package dev.starling.storage.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The 13 SSB query texts; that they find rows is checked by the differential tests in module bench. */
class SsbQueriesTest {

    @Test
    void namesAndTexts() {
        assertEquals(13, SsbQueries.names().size());
        assertEquals("1.1", SsbQueries.names().get(0));
        assertEquals("4.3", SsbQueries.names().get(12));
        for (String name : SsbQueries.names()) {
            String sql = SsbQueries.query(name);
            assertTrue(sql.startsWith("select"), name);
            assertTrue(sql.contains("dwdate"), name);
            assertFalse(sql.contains(";") || sql.contains("--"), name);
        }
        assertThrows(IllegalArgumentException.class, () -> SsbQueries.query("5.1"));
    }
}
