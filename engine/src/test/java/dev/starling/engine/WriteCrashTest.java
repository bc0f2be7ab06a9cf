package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.starling.storage.Table;
import dev.starling.storage.gen.TpchGenerator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every write phase survives {@code kill -9}: a second process ({@link WritesUntilKilled}) writes
 * batch after batch to a data directory and is killed after a random number of acknowledged
 * batches, at a random moment of the time a batch took; reopened, the directory holds every
 * acknowledged batch and no part of any batch: INSERT's and LOAD's appended batches whole and
 * in order, the tables DROP leaves behind whole, GENERATE's tables all or none (as many as the
 * DROPs before it left). Each kill continues from the directory the one before left.
 */
class WriteCrashTest {
    private static final int KILLS = 4;

    @TempDir
    Path dir;

    @TempDir
    Path files;

    @ParameterizedTest
    @ValueSource(strings = {"insert", "load", "drop", "generate"})
    void nothingAcknowledgedIsLostAndNothingIsHalfVisible(String phase) throws Exception {
        Random random = new Random(phase.hashCode());
        Map<String, Long> tpch = phase.equals("generate") ? tpchRowCounts() : Map.of();
        int acknowledged = -1;
        for (int kill = 0; kill < KILLS; kill++) {
            acknowledged = Math.max(acknowledged, writeUntilKilled(phase, 2 + random.nextInt(2), random.nextDouble()));
            try (Starling db = Starling.open(dir)) {
                switch (phase) {
                    case "insert", "load" -> assertWholeBatches(db, acknowledged);
                    case "drop" -> assertDropsWhole(db, acknowledged);
                    default -> assertAllOrNone(db, tpch);
                }
            }
        }
    }

    /**
     * Starts the writer, waits for {@code acks} (at least two) more acknowledged batches, then
     * {@code part} of the time between the last two, and kills it; returns the last batch acknowledged.
     */
    private int writeUntilKilled(String phase, int acks, double part) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process writer = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                WritesUntilKilled.class.getName(), dir.toString(), phase, files.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        int last = -1;
        long[] at = new long[acks];
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
            for (int seen = 0; seen < acks; ) {
                String line = out.readLine();
                if (line == null) {
                    fail("the writer stopped before its acknowledgements: exit " + writer.waitFor());
                }
                if (line.startsWith("ack ")) {
                    last = Integer.parseInt(line.substring(4));
                    at[seen++] = System.nanoTime();
                }
            }
            Thread.sleep((long) (part * (at[acks - 1] - at[acks - 2]) / 1e6));
        } finally {
            writer.destroyForcibly();
            assertTrue(writer.waitFor(30, TimeUnit.SECONDS), "the writer outlived its kill");
        }
        return last;
    }

    /** Table t holds batches 0 to at least {@code acknowledged}, each of its 1,000 rows. */
    private static void assertWholeBatches(Starling db, int acknowledged) {
        Map<Integer, Long> counts = new TreeMap<>();
        for (List<Object> row : db.query("SELECT batch, COUNT(*) FROM t GROUP BY batch").rows()) {
            counts.put((Integer) row.get(0), (Long) row.get(1));
        }
        int batches = counts.size();
        assertTrue(batches >= acknowledged + 1, "acknowledged " + acknowledged + ", holds " + counts);
        for (int b = 0; b < batches; b++) {
            assertEquals((long) WritesUntilKilled.ROWS, counts.get(b), "batch " + b + " of " + counts);
        }
    }

    /**
     * Of the d_ tables, none before the last acknowledged is left, at least one is, and each has
     * no rows or all of them.
     */
    private static void assertDropsWhole(Starling db, int acknowledged) {
        for (Table t : db.catalog().tables()) {
            int b = Integer.parseInt(t.name().substring(2));
            assertTrue(b >= acknowledged, t.name() + " left after batch " + acknowledged + " dropped it");
            long rows = (Long) db.query("SELECT COUNT(*) FROM " + t.name()).rows().get(0).get(0);
            assertTrue(rows == 0 || rows == WritesUntilKilled.ROWS, t.name() + " holds " + rows + " rows");
        }
        // the writer drops a batch's table only once the next one's is made
        assertTrue(!db.catalog().tables().isEmpty(), "no table left after batch " + acknowledged);
    }

    /**
     * The TPC-H tables there are one GENERATE's, all of them, each with its rows, less those the
     * writer's DROPs took one at a time, the referencing ones first: the first of them in
     * {@link TpchGenerator#TABLES}' order, none of a GENERATE cut short.
     */
    private static void assertAllOrNone(Starling db, Map<String, Long> tpch) {
        List<String> present = TpchGenerator.TABLES.stream().filter(t -> db.catalog().table(t).isPresent()).toList();
        assertEquals(TpchGenerator.TABLES.subList(0, present.size()), present, "the TPC-H tables left");
        for (String t : present) {
            assertEquals(tpch.get(t), db.catalog().table(t).orElseThrow().rowCount(), t);
        }
    }

    private static Map<String, Long> tpchRowCounts() {
        Map<String, Long> counts = new HashMap<>();
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            for (String t : TpchGenerator.TABLES) {
                counts.put(t, db.catalog().table(t).orElseThrow().rowCount());
            }
        }
        return counts;
    }
}
