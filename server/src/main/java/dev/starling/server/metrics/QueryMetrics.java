package dev.starling.server.metrics;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Counts of the queries the server has run: running now, finished by outcome, and their total time. */
public final class QueryMetrics {
    public enum Outcome { OK, FAILED, CANCELLED, TIMED_OUT }

    private final AtomicInteger running = new AtomicInteger();
    private final LongAdder[] finished = java.util.stream.Stream.generate(LongAdder::new).limit(Outcome.values().length)
            .toArray(LongAdder[]::new);
    private final AtomicLong nanos = new AtomicLong();
    private final LongAdder rows = new LongAdder();

    /** A query starts; the returned token ends it. */
    public long started() {
        running.incrementAndGet();
        return System.nanoTime();
    }

    public void finished(long startedAt, Outcome outcome, long rowsSent) {
        running.decrementAndGet();
        finished[outcome.ordinal()].increment();
        nanos.addAndGet(System.nanoTime() - startedAt);
        rows.add(rowsSent);
    }

    public int running() {
        return running.get();
    }

    public long finished(Outcome outcome) {
        return finished[outcome.ordinal()].sum();
    }

    public double seconds() {
        return nanos.get() / 1e9;
    }

    public long rows() {
        return rows.sum();
    }
}
