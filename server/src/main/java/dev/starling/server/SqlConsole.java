package dev.starling.server;

import dev.starling.engine.PreparedQuery;
import dev.starling.engine.Starling;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongConsumer;
import dev.starling.shell.SqlLineReader;
import org.jline.reader.LineReader;
import org.jline.terminal.Terminal;

/**
 * The server's SQL console on its terminal (JLine): line editing, a history kept across starts,
 * statements over several lines up to their ';' (several on a line too), Ctrl-C to stop the
 * running query (or clear the line), and Ctrl-D to leave the console, which leaves the server serving.
 * A long INSERT, LOAD or COPY says how many rows it has written, and how fast, as it goes.
 */
final class SqlConsole {
    /** How often a long INSERT, LOAD or COPY says how far it has got. */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

    private final Starling db;
    private final Terminal terminal;
    private final Path history;
    private final Duration progressEvery;

    /** A console on {@code terminal}; {@code history} keeps the statements typed (null: none kept). */
    SqlConsole(Starling db, Terminal terminal, Path history) {
        this(db, terminal, history, PROGRESS_EVERY);
    }

    /** The same, a long data statement's progress shown at most every {@code progressEvery}. */
    SqlConsole(Starling db, Terminal terminal, Path history, Duration progressEvery) {
        this.db = db;
        this.terminal = terminal;
        this.history = history;
        this.progressEvery = progressEvery;
    }

    void run() {
        LineReader reader = SqlLineReader.on(terminal, history);
        PrintWriter out = terminal.writer();
        out.println("Starling SQL console. Tables: " + db.catalog().tables().stream().map(t -> t.name()).sorted().toList());
        out.println("End statements with ';'. Ctrl-C stops a query (twice: leaves the server), Ctrl-D leaves the console "
                + "(the server goes on).");
        SqlLineReader.eachStatement(reader, sql -> execute(sql, out));
        out.println();
        out.flush();
    }

    private void execute(String sql, PrintWriter out) {
        if (sql.isBlank()) {
            return;
        }
        long start = System.nanoTime();
        QueryContext ctx = db.newContext();
        // a query stops at the first Ctrl-C; a data statement runs to its end (it is atomic), so a
        // second one leaves the server (closing it in order), as Ctrl-C does without a console
        java.util.concurrent.atomic.AtomicInteger presses = new java.util.concurrent.atomic.AtomicInteger();
        Terminal.SignalHandler before = terminal.handle(Terminal.Signal.INT, signal -> {
            if (presses.incrementAndGet() == 1) {
                ctx.cancel();
            } else {
                System.exit(130);
            }
        });
        try {
            PreparedQuery q = db.prepare(sql);
            if (q.isUpdate() && !q.isSet()) {
                long rows = db.update(q, db.settings(), new ProgressLine(out, start, progressEvery)).rows();
                out.printf("(%d rows written, %.1f ms)%n", rows, (System.nanoTime() - start) / 1e6);
                return;
            }
            QueryResult result = db.query(q, ctx);
            out.print(result.toText());
            out.printf("(%d rows, %.1f ms)%n", result.rows().size(), (System.nanoTime() - start) / 1e6);
        } catch (RuntimeException e) {
            out.println("ERROR: " + e.getMessage());
        } finally {
            terminal.handle(Terminal.Signal.INT, before);
            out.flush();
        }
    }

    /**
     * A data statement's progress as the console shows it: the rows written so far and their rate,
     * at most every {@code every} (an INSERT, LOAD or COPY of a few rows says nothing).
     */
    private static final class ProgressLine implements LongConsumer {
        private final PrintWriter out;
        private final long start;
        private final long every;
        private long shown;

        ProgressLine(PrintWriter out, long start, Duration every) {
            this.out = out;
            this.start = start;
            this.every = every.toNanos();
            this.shown = start;
        }

        @Override
        public synchronized void accept(long rows) {
            long now = System.nanoTime();
            if (now - shown < every || rows == 0) {
                return;
            }
            shown = now;
            double seconds = (now - start) / 1e9;
            out.printf("  ... %,d rows written in %.1f s (%,.0f rows/s)%n", rows, seconds, rows / Math.max(seconds, 1e-9));
            out.flush();
        }
    }
}
