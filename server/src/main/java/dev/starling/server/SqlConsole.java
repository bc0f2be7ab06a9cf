package dev.starling.server;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.jline.reader.EOFError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;

/**
 * The server's SQL console on its terminal (JLine): line editing, a history kept across starts,
 * statements over several lines up to their ';' (several on a line too), Ctrl-C to stop the
 * running query (or clear the line), and Ctrl-D to leave the console, which leaves the server serving.
 */
final class SqlConsole {
    private final Starling db;
    private final Terminal terminal;
    private final Path history;

    /** A console on {@code terminal}; {@code history} keeps the statements typed (null: none kept). */
    SqlConsole(Starling db, Terminal terminal, Path history) {
        this.db = db;
        this.terminal = terminal;
        this.history = history;
    }

    void run() {
        UntilSemicolon parser = new UntilSemicolon();
        // SQL's backslashes and '!' are the statement's own, never escapes or history references
        parser.setEscapeChars(null);
        LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).parser(parser)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, "       -> ");
        if (history != null) {
            builder.variable(LineReader.HISTORY_FILE, history);
        }
        LineReader reader = builder.build();
        PrintWriter out = terminal.writer();
        out.println("Starling SQL console. Tables: " + db.catalog().tables().stream().map(t -> t.name()).sorted().toList());
        out.println("End statements with ';'. Ctrl-C stops a query (twice: leaves the server), Ctrl-D leaves the console "
                + "(the server goes on).");
        while (true) {
            String line;
            try {
                line = reader.readLine("starling> ");
            } catch (UserInterruptException cleared) {
                continue;
            } catch (EndOfFileException end) {
                out.println();
                out.flush();
                return;
            }
            for (String sql : ConsoleStatements.of(line).complete()) {
                execute(sql, out);
            }
        }
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
            QueryResult result = db.query(db.prepare(sql), ctx);
            out.print(result.toText());
            out.printf("(%d rows, %.1f ms)%n", result.rows().size(), (System.nanoTime() - start) / 1e6);
        } catch (RuntimeException e) {
            out.println("ERROR: " + e.getMessage());
        } finally {
            terminal.handle(Terminal.Signal.INT, before);
            out.flush();
        }
    }

    /** Input is accepted once its statements end with ';' ({@link ConsoleStatements}); until then the console asks for more lines. */
    private static final class UntilSemicolon extends DefaultParser {
        @Override
        public ParsedLine parse(String line, int cursor, ParseContext context) {
            if (context == ParseContext.ACCEPT_LINE && ConsoleStatements.of(line).open()) {
                throw new EOFError(-1, -1, "the statement goes on to its ';'", ";");
            }
            return super.parse(line, cursor, context);
        }
    }
}
