package dev.starling.engine;

import dev.starling.exec.BackendMode;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.cuda.HostMemoryPools;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans and runs statements of the shapes analysts send (joins of several tables, grouping,
 * HAVING, sorts with and without a limit, IN, EXISTS and scalar subqueries, outer joins, set
 * operations, string and date functions) over a private in-memory catalog of its own, on the CPU
 * and, for a GPU profile, placed for it, so that a server's first query does not pay for loading
 * and compiling the code they go through: Calcite's rules and its generated metadata handlers, the
 * translation, placement and the operators. On a 2-core machine TPC-H Q3 took 1.9 s as the first
 * query of a process and 0.17 s after it. The user's catalog is not read.
 */
public final class PlannerWarmUp {
    private static final List<String> SCHEMA = List.of(
            "CREATE TABLE d (k INT PRIMARY KEY, name VARCHAR(10) NOT NULL)",
            "CREATE TABLE r (k INT PRIMARY KEY, d_k INT REFERENCES d (k), tag VARCHAR(5))",
            "CREATE TABLE f (id BIGINT NOT NULL, k INT REFERENCES d (k), r_k INT REFERENCES r (k), v DECIMAL(12,2), "
                    + "x DOUBLE, day DATE)",
            "INSERT INTO d VALUES (1, 'ab'), (2, 'ba'), (3, 'ca')",
            "INSERT INTO r VALUES (1, 1, 'x'), (2, 3, 'y'), (3, 2, NULL)",
            "INSERT INTO f VALUES (1, 1, 2, 2.50, 1.5, DATE '2020-01-01'), (2, 2, 1, 3.25, -0.5, DATE '2020-02-01'), "
                    + "(3, 3, 3, NULL, NULL, DATE '2021-03-04'), (4, 1, 1, 1.00, 2.0, NULL)");
    private static final List<String> QUERIES = List.of(
            "SELECT d.name, r.tag, SUM(f.v * (1 - 0.10)) AS s, COUNT(*) AS c FROM f JOIN d ON f.k = d.k "
                    + "JOIN r ON f.r_k = r.k WHERE f.day >= DATE '2020-01-01' AND d.name LIKE 'a%' "
                    + "GROUP BY d.name, r.tag ORDER BY s DESC, d.name LIMIT 10",
            "SELECT d1.name, EXTRACT(YEAR FROM f.day) AS y, SUM(f.x) AS t FROM f JOIN d d1 ON f.k = d1.k "
                    + "JOIN r ON f.r_k = r.k JOIN d d2 ON r.d_k = d2.k WHERE d1.name <> d2.name OR r.tag IN ('x', 'y') "
                    + "GROUP BY d1.name, EXTRACT(YEAR FROM f.day) HAVING COUNT(*) > 0 ORDER BY 1, 2",
            "SELECT id, v FROM f WHERE k IN (SELECT k FROM d WHERE name LIKE '%a') "
                    + "AND v > (SELECT AVG(v) FROM f f2 WHERE f2.k = f.k) "
                    + "AND NOT EXISTS (SELECT 1 FROM r WHERE r.k = f.r_k AND r.tag = 'z') ORDER BY id",
            "SELECT SUBSTRING(d.name FROM 1 FOR 1) AS c, COUNT(DISTINCT f.id) AS n FROM d LEFT JOIN f ON f.k = d.k "
                    + "GROUP BY SUBSTRING(d.name FROM 1 FOR 1) UNION ALL "
                    + "SELECT CASE WHEN x > 1 THEN 'p' ELSE 'n' END, COALESCE(id, 0) FROM f",
            "SELECT DISTINCT UPPER(tag) FROM r WHERE tag IS NOT NULL AND k BETWEEN 1 AND 3",
            "SELECT id, day + INTERVAL '1' DAY, CAST(v AS DOUBLE) / 2 FROM f ORDER BY x DESC NULLS LAST");

    private static final Logger LOG = LoggerFactory.getLogger(PlannerWarmUp.class);

    private PlannerWarmUp() { }

    /**
     * {@link #run} on a thread of its own; the future completes when it is done, also when it
     * failed (which is logged: a query then pays the warm-up itself, nothing else is lost).
     */
    public static CompletableFuture<Void> inBackground(Optional<DeviceProfile> profile) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            long start = System.nanoTime();
            try {
                run(profile);
                LOG.info("Planner warmed up in {} ms", (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException e) {
                LOG.warn("Planner warm-up failed: {}", e.toString());
            } finally {
                done.complete(null);
            }
        }, "planner-warm-up");
        t.setDaemon(true);
        t.start();
        return done;
    }

    /**
     * Runs the statements on the CPU, and for {@code profile} (a GPU's, when the engine plans for
     * one) explains the queries placed for it with the GPU forced.
     */
    public static void run(Optional<DeviceProfile> profile) {
        String name = profile.map(DeviceProfile::name).filter(PlannerWarmUp::builtIn).orElse(null);
        try (Starling db = Starling.inMemory(new GpuOptions(false, 0, 0, HostMemoryPools.DEFAULT, name))) {
            SCHEMA.forEach(db::query);
            QUERIES.forEach(db::query);
            if (name != null) {
                db.setBackendMode(BackendMode.GPU);
                QUERIES.forEach(db::explain);
            }
        }
    }

    /** Whether a profile of this name can be planned for without its device (a detected device's takes a built-in one's name). */
    private static boolean builtIn(String name) {
        try {
            DeviceProfile.named(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
