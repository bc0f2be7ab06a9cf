package dev.starling.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.TpchGenerator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlConsoleTest {
    @TempDir
    Path dir;

    private String run(Starling db, String typed, Path history) throws Exception {
        return run(db, typed, history, java.time.Duration.ofSeconds(2));
    }

    private String run(Starling db, String typed, Path history, java.time.Duration progressEvery) throws Exception {
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        try (Terminal terminal = TerminalBuilder.builder().system(false).dumb(true).encoding(StandardCharsets.UTF_8)
                .streams(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)), shown).build()) {
            new SqlConsole(db, terminal, history, progressEvery).run();
        }
        return shown.toString(StandardCharsets.UTF_8);
    }

    @Test
    void statementsOverSeveralLinesErrorsAndTheEndOfInputLeaveTheEngineOpen() throws Exception {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.001, "");
            Path history = dir.resolve("history");
            String shown = run(db, "SELECT count(*)\n  FROM nation;\nSELECT nope FROM nation;\n\nSELECT 1 + 1 AS two; -- sum\n"
                    + "SELECT 'a\\b;' AS slash, 6 * 7 AS answer; SELECT 5 AS five;\n", history);
            assertTrue(shown.contains("25"), shown);
            assertTrue(shown.contains("(1 rows,"), shown);
            assertTrue(shown.contains("ERROR: "), shown);
            assertTrue(shown.contains("nope"), shown);
            assertTrue(shown.contains("two"), shown);
            // a backslash and a ';' in a string are the statement's; two statements on one line both run
            assertTrue(shown.contains("a\\b;"), shown);
            assertTrue(shown.contains("42"), shown);
            assertTrue(shown.contains("five"), shown);
            // the end of input left the console, not the engine, which goes on answering
            assertEquals(25L, ((Number) db.query("SELECT count(*) FROM nation").rows().get(0).get(0)).longValue());
            String kept = Files.readString(history);
            assertTrue(kept.contains("SELECT 1 + 1 AS two; -- sum"), kept);
        }
    }

    @Test
    void aLongLoadSaysHowFarItHasGotAndEveryDataStatementHowManyRowsItWrote() throws Exception {
        StringBuilder csv = new StringBuilder("k,v\n");
        for (int r = 0; r < 200_000; r++) {
            csv.append(r).append(',').append(r % 7).append('\n');
        }
        Path file = Files.writeString(dir.resolve("many.csv"), csv);
        try (Starling db = Starling.inMemory()) {
            // every progress report shown, where the console waits 2 s between them
            String shown = run(db, "CREATE TABLE t (k INT, v INT);\nLOAD INTO t FROM '" + file + "';\n"
                    + "INSERT INTO t VALUES (1, 2), (3, 4);\n", null, java.time.Duration.ZERO);
            assertTrue(shown.contains("  ... 65,536 rows written in "), shown);
            assertTrue(shown.contains("(200000 rows written, "), shown);
            assertTrue(shown.contains("(2 rows written, "), shown);
            assertEquals(200_002L, db.catalog().require("t").rowCount());
        }
    }
}
