package dev.starling.shell;

import dev.starling.exec.QueryResult;
import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jline.reader.LineReader;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/starling-sql}: a thin SQL shell on a running Starling server over Arrow Flight SQL. It
 * prints results and errors, nothing else: statements from {@code -e}, a file, standard input, or
 * typed at a console with line editing and history, where Ctrl-C stops the running query (a data
 * statement runs to its end: it is atomic). A result is printed once it is whole.
 */
@Command(name = "starling-sql", mixinStandardHelpOptions = true, version = "Starling 0.1.0",
        description = "SQL shell for a Starling server (Arrow Flight SQL). Statements end with ';'.")
public final class StarlingSql implements Callable<Integer> {
    /** Exit status when a statement (or the login) failed; {@link #UNREACHABLE} when the server could not be reached. */
    private static final int FAILED = 1;
    private static final int UNREACHABLE = 2;

    @Option(names = "--host", description = "Server host (default: ${DEFAULT-VALUE}).")
    private String host = "127.0.0.1";

    @Option(names = "--port", description = "Server port (default: ${DEFAULT-VALUE}).")
    private int port = 32010;

    @Option(names = "--user", description = "User name, when the server asks for passwords.")
    private String user;

    @Option(names = "--password", description = "Password (asked for when --user is given without it).")
    private String password;

    @Option(names = "--tls", description = "Connect over TLS.")
    private boolean tls;

    @Option(names = "--tls-root-certs", description = "PEM file of the certificate authority to trust (with --tls).")
    private Path rootCerts;

    @Option(names = {"-e", "--execute"}, description = "Run these statements and leave.")
    private String execute;

    @Option(names = {"-f", "--file"}, description = "Run the statements of this file and leave.")
    private Path file;

    private final PrintWriter out;
    private final PrintWriter err;

    StarlingSql(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        // only results and errors reach the terminal: gRPC's logging is off, as SLF4J's is (its one
        // provider on the shell's class path discards everything)
        java.util.logging.LogManager.getLogManager().reset();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(out, err, args));
    }

    /** Runs the shell with {@code args}, writing to {@code out} and {@code err}; the exit status. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        return new CommandLine(new StarlingSql(out, err)).setOut(out).setErr(err).execute(args);
    }

    @Override
    public Integer call() throws IOException {
        Console console = System.console();
        if (user != null && password == null) {
            password = console == null ? "" : new String(console.readPassword("password for %s: ", user));
        }
        FlightSqlConnection connection;
        try {
            connection = FlightSqlConnection.open(new FlightSqlConnection.Endpoint(host, port, tls, rootCerts, user, password));
        } catch (ShellException e) {
            err.println("ERROR: " + e.getMessage());
            return e.unreachable() ? UNREACHABLE : FAILED;
        }
        try (connection) {
            if (execute != null) {
                return runAll(connection, execute);
            }
            if (file != null) {
                return runAll(connection, Files.readString(file));
            }
            if (console == null) {
                return runAll(connection, new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
            }
            return interactive(connection);
        }
    }

    /**
     * Runs every statement of {@code text}, going on past a failed one: FAILED when any failed,
     * UNREACHABLE (and no further statement tried) when the server cannot be reached.
     */
    private int runAll(FlightSqlConnection connection, String text) {
        // the last statement may leave out its ';' (on a line of its own: a comment may end the text)
        Statements statements = Statements.of(text + "\n;");
        if (statements.open()) {
            err.println("ERROR: the text ends inside a quote or a /* comment; nothing was run");
            return FAILED;
        }
        int status = 0;
        for (String statement : statements.complete()) {
            try {
                runOne(connection, statement, false);
            } catch (ShellException e) {
                err.println("ERROR: " + e.getMessage());
                if (e.unreachable()) {
                    return UNREACHABLE;
                }
                status = FAILED;
            }
        }
        return status;
    }

    private int interactive(FlightSqlConnection connection) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            LineReader reader = SqlLineReader.on(terminal, Path.of(System.getProperty("user.home"), ".starling_sql_history"));
            Terminal.SignalHandler before = terminal.handle(Terminal.Signal.INT, signal -> connection.cancel());
            try {
                SqlLineReader.eachStatement(reader, statement -> {
                    try {
                        runOne(connection, statement, true);
                    } catch (ShellException e) {
                        err.println("ERROR: " + e.getMessage());
                    }
                });
                return 0;
            } finally {
                terminal.handle(Terminal.Signal.INT, before);
            }
        }
    }

    /** Runs {@code statement} and prints its answer, with its row count and time when {@code timed}. */
    private void runOne(FlightSqlConnection connection, String statement, boolean timed) {
        long start = System.nanoTime();
        FlightSqlConnection.Answer answer = connection.run(statement);
        double ms = (System.nanoTime() - start) / 1e6;
        switch (answer) {
            case FlightSqlConnection.Rows(QueryResult result) -> {
                out.print(result.toText());
                if (timed) {
                    out.printf("(%d rows, %.1f ms)%n", result.rows().size(), ms);
                }
            }
            case FlightSqlConnection.Written(long rows) -> out.printf(timed ? "(%d rows written, %.1f ms)%n"
                    : "(%d rows written)%n", rows, ms);
        }
        out.flush();
    }
}
