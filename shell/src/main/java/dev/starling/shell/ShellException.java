package dev.starling.shell;

import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/** A failure the shell reports in words: the server's message, or why the server cannot be reached. */
public final class ShellException extends RuntimeException {
    private final boolean unreachable;

    ShellException(String message, boolean unreachable) {
        super(message);
        this.unreachable = unreachable;
    }

    /** Whether the server could not be reached at all (no later statement can succeed either). */
    boolean unreachable() {
        return unreachable;
    }

    /** {@code e} in words; {@code endpoint} names the server when it cannot be reached. */
    static ShellException of(FlightRuntimeException e, FlightSqlConnection.Endpoint endpoint) {
        FlightStatusCode code = e.status().code();
        String said = e.status().description();
        if (code == FlightStatusCode.UNAVAILABLE) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String why = root == e ? said : root.getMessage();
            return new ShellException("cannot reach the server at " + endpoint
                    + (why == null || why.isBlank() ? "" : ": " + why), true);
        }
        if (code == FlightStatusCode.CANCELLED) {
            return new ShellException("cancelled", false);
        }
        return new ShellException(said == null || said.isBlank() ? code.toString().toLowerCase(java.util.Locale.ROOT) : said,
                false);
    }
}
