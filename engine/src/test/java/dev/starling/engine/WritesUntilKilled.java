package dev.starling.engine;

import dev.starling.engine.data.IntakeLimits;
import dev.starling.storage.gen.TpchGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A second process for {@link WriteCrashTest}: opens a data directory and writes to it in one
 * phase, batch after batch, printing {@code ack <batch>} once each write is acknowledged, until it
 * is killed. {@code insert} and {@code load} append 1,000 rows of batch {@code b} to table
 * {@code t} (by INSERT, or by LOAD of a CSV file under {@code files}); {@code drop} creates and
 * fills {@code d_<b>} and drops the d_ tables before it; {@code generate} drops the TPC-H tables, if any,
 * and generates them again at SF 0.01.
 */
public final class WritesUntilKilled {
    static final int ROWS = 1000;

    private WritesUntilKilled() { }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        String phase = args[1];
        Path files = Path.of(args[2]);
        try (Starling db = Starling.open(dir)) {
            db.setIntakeLimits(IntakeLimits.of(List.of(files), 1));
            if ((phase.equals("insert") || phase.equals("load")) && db.catalog().table("t").isEmpty()) {
                db.query("CREATE TABLE t (batch INT, v BIGINT)");
            }
            for (int b = next(db, phase); ; b++) {
                switch (phase) {
                    case "insert" -> db.query("INSERT INTO t VALUES " + values(b));
                    case "load" -> {
                        Path csv = files.resolve("batch" + b + ".csv");
                        StringBuilder text = new StringBuilder("batch,v\n");
                        for (int r = 0; r < ROWS; r++) {
                            text.append(b).append(',').append(r).append('\n');
                        }
                        Files.writeString(csv, text);
                        db.query("LOAD t FROM '" + csv + "' FORMAT CSV");
                    }
                    case "drop" -> {
                        db.query("CREATE TABLE d_" + b + " (batch INT, v BIGINT)");
                        db.query("INSERT INTO d_" + b + " VALUES " + values(b));
                        for (int older : batches(db)) {
                            if (older < b) {
                                db.query("DROP TABLE d_" + older);
                            }
                        }
                    }
                    case "generate" -> {
                        // the referencing tables first
                        for (String table : TpchGenerator.TABLES.reversed()) {
                            if (db.catalog().table(table).isPresent()) {
                                db.query("DROP TABLE " + table);
                            }
                        }
                        db.query("GENERATE TPCH SCALE FACTOR 0.01");
                    }
                    default -> throw new IllegalArgumentException("no phase " + phase);
                }
                System.out.println("ack " + b);
                System.out.flush();
            }
        }
    }

    /** The batch after those the directory holds. */
    private static int next(Starling db, String phase) {
        if (phase.equals("generate")) {
            return 0;
        }
        if (phase.equals("drop")) {
            return batches(db).stream().mapToInt(b -> b + 1).max().orElse(0);
        }
        Object most = db.query("SELECT MAX(batch) FROM t").rows().get(0).get(0);
        return most == null ? 0 : (Integer) most + 1;
    }

    /** The batches of the d_ tables there are. */
    private static List<Integer> batches(Starling db) {
        return db.catalog().tables().stream().filter(t -> t.name().startsWith("d_"))
                .map(t -> Integer.parseInt(t.name().substring(2))).toList();
    }

    private static String values(int b) {
        StringBuilder values = new StringBuilder();
        for (int r = 0; r < ROWS; r++) {
            values.append(r == 0 ? "" : ", ").append('(').append(b).append(", ").append(r).append(')');
        }
        return values.toString();
    }
}
