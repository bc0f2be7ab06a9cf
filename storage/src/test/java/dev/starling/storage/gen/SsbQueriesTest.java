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

    @Test
    void variantsDrawOtherParametersOncePerSeed() {
        for (String name : SsbQueries.names()) {
            assertEquals(SsbQueries.variant(name, 7), SsbQueries.variant(name, 7), name);
            long changed = java.util.stream.LongStream.rangeClosed(1, 5)
                    .filter(seed -> !SsbQueries.variant(name, seed).equals(SsbQueries.query(name))).count();
            assertTrue(changed >= 4, name + " kept its shipped parameters under " + (5 - changed) + " of 5 seeds");
        }
    }
}
