package dev.starling.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The SF 0.01 answers that ship with io.trino.tpch ({@code qN.result}): a check of the generated data
 * and of the adapted query texts that does not depend on either engine.
 */
final class TpchReferenceAnswers {
    static final double SCALE_FACTOR = 0.01;

    private TpchReferenceAnswers() { }

    static void assertMatches(int query, ResultRows actual) {
        List<List<String>> expected = reference(query);
        assertEquals(expected.size(), actual.rows().size(), "rows of q" + query);
        for (int r = 0; r < expected.size(); r++) {
            List<Object> row = actual.rows().get(r);
            for (int c = 0; c < row.size(); c++) {
                assertCell(expected.get(r).get(c), row.get(c), "q" + query + " row " + (r + 1) + " column " + (c + 1));
            }
        }
    }

    /** The reference rows: '|'-separated, after a header line; "null" is NULL. */
    private static List<List<String>> reference(int query) {
        String resource = "/io/trino/tpch/queries/q" + query + ".result";
        try (InputStream in = TpchReferenceAnswers.class.getResourceAsStream(resource)) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            return Arrays.stream(lines).skip(1).filter(l -> !l.isBlank())
                    .map(l -> Arrays.asList(l.split("\\|", -1))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(resource, e);
        }
    }

    /** Numbers agree to the digits the reference shows (it rounds averages and ratios). */
    private static void assertCell(String expected, Object actual, String where) {
        if (expected.equals("null")) {
            assertEquals(null, actual, where);
        } else if (actual instanceof Number number) {
            BigDecimal e = new BigDecimal(expected);
            BigDecimal a = new BigDecimal(number.toString());
            BigDecimal unit = BigDecimal.ONE.movePointLeft(Math.max(0, e.scale()));
            assertTrue(a.subtract(e).abs().compareTo(unit) <= 0, where + ": expected " + expected + ", got " + actual);
        } else {
            assertEquals(expected, String.valueOf(actual), where);
        }
    }
}
