package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INSERTs and LOADs into one table from many sessions at once take turns: every one succeeds and
 * every row each was told it wrote is there (they used to fail with "table changed during the
 * append; retry" when they met), as is each row's primary key, which they all check against the
 * version they append to.
 */
class ConcurrentAppendTest {
    private static final int INSERTERS = 6;
    private static final int LOADERS = 2;
    private static final int STATEMENTS = 30;
    private static final int ROWS = 10;

    @TempDir
    Path dir;

    @Test
    void appendsToOneTableTakeTurnsAndKeepEveryRow() throws Exception {
        Path file = dir.resolve("rows.csv");
        StringBuilder csv = new StringBuilder("id,writer\n");
        for (int r = 0; r < ROWS; r++) {
            csv.append(r).append(",-1\n");
        }
        Files.writeString(file, csv);
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE keyed (id INT PRIMARY KEY, writer INT)");
            db.query("CREATE TABLE loose (id INT, writer INT)");
            ExecutorService pool = Executors.newFixedThreadPool(INSERTERS + LOADERS);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < INSERTERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int s = 0; s < STATEMENTS; s++) {
                        StringBuilder sql = new StringBuilder("INSERT INTO keyed VALUES ");
                        for (int r = 0; r < ROWS; r++) {
                            int id = (writer * STATEMENTS + s) * ROWS + r;
                            sql.append(r == 0 ? "" : ", ").append('(').append(id).append(", ").append(writer).append(')');
                        }
                        db.query(sql.toString());
                        db.query("INSERT INTO loose SELECT id, writer FROM keyed WHERE id = " + (writer * STATEMENTS + s) * ROWS);
                    }
                    return null;
                }));
            }
            for (int l = 0; l < LOADERS; l++) {
                writers.add(pool.submit(() -> {
                    for (int s = 0; s < STATEMENTS; s++) {
                        db.query("LOAD INTO loose FROM '" + file + "' FORMAT CSV");
                    }
                    return null;
                }));
            }
            for (Future<?> w : writers) {
                w.get();
            }
            pool.shutdown();
            assertEquals(List.of(List.of((long) INSERTERS * STATEMENTS * ROWS, (long) INSERTERS * STATEMENTS * ROWS)),
                    db.query("SELECT COUNT(*), COUNT(DISTINCT id) FROM keyed").rows());
            assertEquals(List.of(List.of((long) INSERTERS * STATEMENTS + (long) LOADERS * STATEMENTS * ROWS)),
                    db.query("SELECT COUNT(*) FROM loose").rows());
        }
    }
}
