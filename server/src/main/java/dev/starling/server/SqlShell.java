package dev.starling.server;

import java.io.Console;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import sqlline.SqlLine;

/** A terminal SQL shell (sqlline) connected to a Starling server through the Arrow Flight SQL JDBC driver. */
@Command(name = "starling-sql", mixinStandardHelpOptions = true, version = "Starling 0.1.0",
        description = "SQL shell for a Starling server (sqlline + the Arrow Flight SQL JDBC driver).")
public final class SqlShell implements Callable<Integer> {

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

    @Parameters(description = "Further sqlline arguments, e.g. -e \"SELECT 1\" or -f script.sql.")
    private List<String> sqllineArgs = new ArrayList<>();

    public static void main(String[] args) {
        // sqlline options (-e, -f, ...) pass through.
        System.exit(new CommandLine(new SqlShell()).setUnmatchedOptionsArePositionalParams(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        StringBuilder url = new StringBuilder("jdbc:arrow-flight-sql://").append(host).append(':').append(port)
                .append("/?useEncryption=").append(tls);
        if (rootCerts != null) {
            url.append("&tlsRootCerts=").append(URLEncoder.encode(rootCerts.toAbsolutePath().toString(), StandardCharsets.UTF_8));
        }
        List<String> args = new ArrayList<>(List.of("-u", url.toString(), "-d", "org.apache.arrow.driver.jdbc.ArrowFlightJdbcDriver"));
        if (user != null) {
            if (password == null) {
                Console console = System.console();
                password = console == null ? "" : new String(console.readPassword("password for %s: ", user));
            }
            args.addAll(List.of("-n", user, "-p", password));
        } else {
            args.addAll(List.of("-n", "", "-p", ""));
        }
        if (System.console() == null) {
            // Without a terminal sqlline sees zero columns of width and prints empty cells.
            args.add("--maxWidth=" + System.getenv().getOrDefault("COLUMNS", "160"));
        }
        args.addAll(sqllineArgs);
        SqlLine.Status status = SqlLine.start(args.toArray(String[]::new), null, true);
        return status == SqlLine.Status.OK ? 0 : 1;
    }
}
