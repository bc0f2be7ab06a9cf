package dev.starling.engine;

import dev.starling.exec.Settings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Plans of queries by their exact text and the session settings they were placed under, kept
 * while the catalog is unchanged: a dashboard or application repeating a query skips Calcite and
 * placement (several milliseconds a query). Any change to any table (the catalog's version) makes
 * every entry stale, since a plan names table versions and was costed on their statistics. At
 * most {@link #CAPACITY} entries, least recently used out.
 */
final class PlanCache {
    static final int CAPACITY = 512;

    private record Key(String sql, Settings settings) { }

    private record Plan(long catalogVersion, PreparedQuery query) { }

    private final Map<Key, Plan> entries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Plan> eldest) {
            return size() > CAPACITY;
        }
    };

    /**
     * The plan of {@code sql} under {@code settings} made at catalog version {@code version},
     * planned by {@code plan} when there is none.
     */
    PreparedQuery get(String sql, Settings settings, long version, Supplier<PreparedQuery> plan) {
        Key key = new Key(sql, settings);
        synchronized (entries) {
            Plan e = entries.get(key);
            if (e != null && e.catalogVersion() == version) {
                return e.query();
            }
        }
        PreparedQuery q = plan.get();
        synchronized (entries) {
            entries.put(key, new Plan(version, q));
        }
        return q;
    }
}
