package dev.starling.server;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads ';'-terminated SQL statements and prints each result as a table, or the error. */
final class SqlConsole {
    private final Starling db;
    private final BufferedReader in;
    private final PrintStream out;

    SqlConsole(Starling db, InputStream in, PrintStream out) {
        this.db = db;
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
    }

    void run() {
        out.println("Starling SQL console. Tables: " + db.catalog().tables().stream().map(t -> t.name()).sorted().toList());
        out.println("End statements with ';'. Ctrl-D quits.");
        StringBuilder statement = new StringBuilder();
        try {
            prompt(statement);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                statement.append(line).append('\n');
                if (line.strip().endsWith(";")) {
                    String sql = statement.toString().strip();
                    execute(sql.substring(0, sql.length() - 1));
                    statement.setLength(0);
                }
                prompt(statement);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void prompt(StringBuilder statement) {
        out.print(statement.isEmpty() ? "starling> " : "       -> ");
        out.flush();
    }

    private void execute(String sql) {
        if (sql.isBlank()) {
            return;
        }
        long start = System.nanoTime();
        try {
            QueryResult result = db.query(sql);
            out.print(result.toText());
            out.printf("(%d rows, %.1f ms)%n", result.rows().size(), (System.nanoTime() - start) / 1e6);
        } catch (RuntimeException e) {
            out.println("ERROR: " + e.getMessage());
        }
    }
}
