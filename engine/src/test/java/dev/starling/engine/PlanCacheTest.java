package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A repeated query reuses its plan until any table changes; then it sees the new data. */
class PlanCacheTest {

    @Test
    void aRepeatedQueryIsPlannedOnceUntilTheCatalogChanges() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (a INT)");
            db.query("INSERT INTO t VALUES (1), (2)");
            String sql = "SELECT count(*), sum(a) FROM t";
            PreparedQuery first = db.prepare(sql);
            assertSame(first, db.prepare(sql));
            assertEquals(List.of(List.of(2L, 3L)), db.query(sql).rows());
            db.query("INSERT INTO t VALUES (4)");
            PreparedQuery replanned = db.prepare(sql);
            assertNotSame(first, replanned);
            assertEquals(List.of(List.of(3L, 7L)), db.query(sql).rows());
            db.query("CREATE TABLE u (b INT)");
            assertNotSame(replanned, db.prepare(sql), "any table's change makes plans stale");
            assertNotSame(db.prepare("EXPLAIN " + sql), db.prepare("EXPLAIN " + sql), "EXPLAIN shows placements of now");
        }
    }

    @Test
    void aTimeLimitLeavesThePlanAsItIs() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (a INT)");
            String sql = "SELECT count(*) FROM t";
            PreparedQuery first = db.prepare(sql);
            db.query("SET query_timeout = 5");
            assertSame(first, db.prepare(sql), "the same plan, without planning again");
        }
    }
}
