package dev.starling.engine;

import dev.starling.exec.QueryContext;
import java.util.ArrayDeque;

/**
 * Lets queries start: at most {@code maxRunning} at once, and together no more state than {@code
 * stateBytes} as the optimizer estimates it (a join's table, an aggregation's groups, a sort's rows);
 * the others wait their turn in the order they came, instead of failing or crowding the workers and
 * the memory of those running. A query whose estimate alone is past the budget starts when no
 * other runs. A query waiting stops as a running one does: its cancellation or its time limit
 * (which counts its wait) ends the wait with the same error.
 */
final class QueryAdmission {
    /** How often a waiting query looks at its context between turns. */
    private static final long CHECK_MILLIS = 20;

    private final int maxRunning;
    private final long stateBytes;
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private int running;
    private long reserved;

    QueryAdmission(int maxRunning, long stateBytes) {
        if (maxRunning < 1 || stateBytes < 1) {
            throw new IllegalArgumentException("at least one query and one byte of state, not " + maxRunning + " and "
                    + stateBytes);
        }
        this.maxRunning = maxRunning;
        this.stateBytes = stateBytes;
    }

    /** A query admitted: closing it lets the next one in. */
    interface Admitted extends AutoCloseable {
        @Override
        void close();
    }

    /** Waits for the turn of a query under {@code ctx} whose state is estimated at {@code bytes}. */
    synchronized Admitted admit(QueryContext ctx, long bytes) {
        Object turn = new Object();
        waiting.add(turn);
        try {
            while (waiting.peek() != turn || !fits(bytes)) {
                ctx.checkCancelled();
                wait(CHECK_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ctx.cancel();
            ctx.checkCancelled();
        } finally {
            waiting.remove(turn);
            // the next in line may fit now, or a later one may be first now that this one gave up
            notifyAll();
        }
        running++;
        reserved += bytes;
        return () -> release(bytes);
    }

    private boolean fits(long bytes) {
        return running == 0 || running < maxRunning && reserved + bytes <= stateBytes;
    }

    private synchronized void release(long bytes) {
        running--;
        reserved -= bytes;
        notifyAll();
    }

    /** Queries running now. */
    synchronized int running() {
        return running;
    }

    /** Queries waiting for their turn now. */
    synchronized int waiting() {
        return waiting.size();
    }
}
