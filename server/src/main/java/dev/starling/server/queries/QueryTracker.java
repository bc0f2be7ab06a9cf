package dev.starling.server.queries;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The server's queries: those running now and the last {@value #RECENT} that ended, for the status
 * page; each one that ends (or fails to plan) goes to the listeners (the query log, the metrics).
 */
public final class QueryTracker {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QueryTracker.class);
    static final int RECENT = 100;

    private final Map<String, TrackedQuery> running = new ConcurrentHashMap<>();
    private final Deque<QueryRecord> recent = new ArrayDeque<>();
    private final List<Consumer<QueryRecord>> listeners = new CopyOnWriteArrayList<>();

    /** Every query that ends from now on also goes to {@code listener}. */
    public void onEnd(Consumer<QueryRecord> listener) {
        listeners.add(listener);
    }

    /** {@code user}'s query {@code sql} starts running, after {@code planNanos} of planning. */
    public TrackedQuery start(String user, String sql, long planNanos) {
        TrackedQuery q = new TrackedQuery(user, sql, planNanos);
        running.put(q.id(), q);
        return q;
    }

    /** {@code q} ended with {@code status}; {@code error} is the message its client got, or null. */
    public QueryRecord end(TrackedQuery q, QueryStatus status, String backend, String planHash, String error) {
        running.remove(q.id());
        QueryRecord r = q.record(status.label(), backend, planHash, error);
        ended(r);
        return r;
    }

    private void ended(QueryRecord r) {
        synchronized (recent) {
            if (recent.size() == RECENT) {
                recent.removeLast();
            }
            recent.addFirst(r);
        }
        for (Consumer<QueryRecord> l : listeners) {
            try {
                l.accept(r);
            } catch (RuntimeException e) {
                // a query's end is recorded whatever one listener does
                LOG.warn("query {} not recorded by {}: {}", r.id(), l.getClass().getSimpleName(), e.toString());
            }
        }
    }

    public int runningCount() {
        return running.size();
    }

    /** The queries running now, oldest first. */
    public List<QueryRecord> running() {
        return running.values().stream().map(q -> q.record("running", null, null, null))
                .sorted(java.util.Comparator.comparing(QueryRecord::started)).toList();
    }

    /** The queries that ended last, newest first. */
    public List<QueryRecord> recent() {
        synchronized (recent) {
            return new ArrayList<>(recent);
        }
    }
}
