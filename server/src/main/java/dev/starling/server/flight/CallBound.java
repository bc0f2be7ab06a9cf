package dev.starling.server.flight;

import dev.starling.exec.QueryContext;
import io.grpc.Context;
import io.grpc.Deadline;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A query context bound to the Flight call running on this thread: limited by the client's
 * deadline, and cancelled as soon as the transport learns the call has ended (a cancel, a passed
 * deadline, a client that dies), even while the work computes and has sent nothing. Closing it
 * unbinds the context.
 */
final class CallBound implements AutoCloseable {
    private final Context call = Context.current();
    private final Deadline deadline = call.getDeadline();
    private final Context.CancellationListener stop;

    CallBound(QueryContext ctx) {
        if (deadline != null) {
            ctx.limitTo(Duration.ofNanos(deadline.timeRemaining(TimeUnit.NANOSECONDS)));
        }
        stop = c -> ctx.cancel();
        call.addListener(stop, Runnable::run);
    }

    /** The client's deadline for the call, or null. */
    Deadline deadline() {
        return deadline;
    }

    @Override
    public void close() {
        call.removeListener(stop);
    }
}
