package dev.starling.server.flight;

import io.grpc.Deadline;
import java.util.concurrent.TimeUnit;
import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.InvalidCastException;
import dev.starling.exec.QueryCancelledException;
import dev.starling.exec.QueryMemoryLimitException;
import dev.starling.exec.QueryTimeoutException;
import dev.starling.exec.accel.AcceleratorMissingException;
import dev.starling.server.queries.QueryStatus;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.memory.OutOfMemoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Maps failures to Flight statuses: the user's mistakes (bad SQL, with its position; arithmetic
 * errors and values no CAST converts in the data; a plan for a GPU this server lacks) are INVALID_ARGUMENT,
 * a cancelled query CANCELLED, one past its time limit DEADLINE_EXCEEDED, exhausted memory RESOURCE_EXHAUSTED, and only what must be a bug
 * INTERNAL (logged with its stack trace).
 */
final class FlightErrors {
    /** How long before the server's deadline a client's cancel is taken as the deadline's. */
    private static final long DEADLINE_SLACK_MILLIS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(FlightErrors.class);

    private FlightErrors() { }

    static FlightRuntimeException of(Throwable e) {
        return switch (e) {
            case FlightRuntimeException f -> f;
            case StarlingSqlException s -> CallStatus.INVALID_ARGUMENT.withDescription(s.getMessage()).toRuntimeException();
            case AcceleratorMissingException m -> CallStatus.INVALID_ARGUMENT.withDescription(m.getMessage())
                    .toRuntimeException();
            case ArithmeticException a -> CallStatus.INVALID_ARGUMENT.withDescription(a.getMessage()).toRuntimeException();
            case InvalidCastException c -> CallStatus.INVALID_ARGUMENT.withDescription(c.getMessage()).toRuntimeException();
            case QueryTimeoutException t -> CallStatus.TIMED_OUT.withDescription(t.getMessage()).toRuntimeException();
            case QueryMemoryLimitException m -> CallStatus.RESOURCE_EXHAUSTED.withDescription(m.getMessage())
                    .toRuntimeException();
            case QueryCancelledException c -> CallStatus.CANCELLED.withDescription(c.getMessage()).toRuntimeException();
            case OutOfMemoryError m -> CallStatus.RESOURCE_EXHAUSTED.withDescription("out of memory: " + m.getMessage())
                    .toRuntimeException();
            case OutOfMemoryException m -> CallStatus.RESOURCE_EXHAUSTED.withDescription(
                    "the Arrow buffers of results and uploads passed memory.result_buffer_bytes: " + m.getMessage()).toRuntimeException();
            default -> {
                LOG.error("internal error", e);
                yield CallStatus.INTERNAL.withDescription(internal(e)).withCause(e).toRuntimeException();
            }
        };
    }

    /**
     * What the client hears of a fault of Starling's: one line naming the query (when known) and
     * what failed; the stack trace, and the rest of a message that may dump a whole plan, are in
     * the log.
     */
    static String internal(Throwable e) {
        String query = MDC.get("query");
        String message = e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("");
        return "internal error" + (query == null ? "" : " in query " + query) + " (" + e.getClass().getSimpleName()
                + message + "), a fault of Starling's and not of the query; the server's log has the details";
    }

    /** How a query that failed with {@code e} ended. */
    static QueryStatus status(FlightRuntimeException e) {
        return switch (e.status().code()) {
            case CANCELLED -> QueryStatus.CANCELLED;
            case TIMED_OUT -> QueryStatus.TIMED_OUT;
            default -> QueryStatus.FAILED;
        };
    }

    /**
     * As {@link #status(FlightRuntimeException)} for a call with {@code deadline} (null: none): one
     * stopped at the client's deadline is timed out, though the gRPC context's cancellation may
     * reach it before its own time check does. The client cancels the call when its own copy of the
     * deadline passes, which is a little before the server's (the server's starts when the call's
     * header arrives), so a cancel within {@value #DEADLINE_SLACK_MILLIS} ms of it counts as the
     * deadline's.
     */
    static QueryStatus status(FlightRuntimeException e, Deadline deadline) {
        QueryStatus status = status(e);
        return status == QueryStatus.CANCELLED && deadline != null
                && deadline.timeRemaining(TimeUnit.MILLISECONDS) <= DEADLINE_SLACK_MILLIS ? QueryStatus.TIMED_OUT : status;
    }
}
