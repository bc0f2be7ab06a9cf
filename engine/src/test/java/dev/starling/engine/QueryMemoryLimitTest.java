package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryMemoryLimitException;
import dev.starling.storage.gen.TpchGenerator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The session's memory_limit stops a query whose join tables, groups or buffered rows grow past it,
 * whichever operator holds them, with a message that names the limit; queries within it, and the
 * same query once the limit is raised, answer; EXPLAIN ANALYZE shows the most a query held.
 */
class QueryMemoryLimitTest {
    private static final Pattern PEAK = Pattern.compile("state memory at most ([0-9.]+) (B|KB|MB|GB)");

    @Test
    void aQueryPastItsMemoryLimitStopsAndOneWithinItAnswers() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            db.query("SET backend = 'cpu'");
            List<String> large = List.of(
                    // some 60,000 groups of two keys (not lineitem's key, which would need no grouping)
                    "SELECT l_orderkey, l_partkey, sum(l_quantity) FROM lineitem GROUP BY 1, 2",
                    // a join table over every lineitem row
                    "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_orderkey = b.l_orderkey "
                            + "AND a.l_extendedprice < b.l_extendedprice",
                    // every row of lineitem sorted
                    "SELECT * FROM lineitem ORDER BY l_comment",
                    "SELECT count(DISTINCT l_comment) FROM lineitem");
            List<List<String>> unlimited = large.stream().map(sql -> rows(db, sql)).toList();
            db.query("SET memory_limit = '1MB'");
            for (String sql : large) {
                QueryMemoryLimitException e = assertThrows(QueryMemoryLimitException.class, () -> db.query(sql), sql);
                assertTrue(e.getMessage().startsWith("the query needed more than its memory limit of 1 MB for its join "
                        + "tables, groups and buffered rows ("), e.getMessage());
                assertTrue(e.getMessage().endsWith("when it was stopped); SET memory_limit changes the session's limit"),
                        e.getMessage());
            }
            assertEquals(List.of(List.of(25L)), db.query("SELECT count(*) FROM nation JOIN region ON n_regionkey = r_regionkey")
                    .rows());
            db.query("SET memory_limit = '1GiB'");
            for (int q = 0; q < large.size(); q++) {
                assertTrue(unlimited.get(q).equals(rows(db, large.get(q))), large.get(q));
            }
        }
    }

    /** The query's rows in an order of their own: groups come in any order, and rows with equal sort keys too. */
    private static List<String> rows(Starling db, String sql) {
        return db.query(sql).rows().stream().map(Object::toString).sorted().toList();
    }

    @Test
    void explainAnalyzeShowsTheMostTheQueryHeld() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            db.query("SET backend = 'cpu'");
            String grouped = db.query("EXPLAIN ANALYZE SELECT l_orderkey, l_partkey, count(*) FROM lineitem GROUP BY 1, 2")
                    .rows().get(0).get(0).toString();
            Matcher m = PEAK.matcher(grouped);
            assertTrue(m.find(), grouped);
            // the merged groups alone: a key table of some 60,000 keys of three words and a count per group
            assertTrue(m.group(2).equals("MB") && Double.parseDouble(m.group(1)) >= 2, grouped);
            String scanned = db.query("EXPLAIN ANALYZE SELECT count(*) FROM lineitem WHERE l_quantity < 10")
                    .rows().get(0).get(0).toString();
            m = PEAK.matcher(scanned);
            assertTrue(m.find(), scanned);
            assertTrue(m.group(2).equals("KB") || m.group(2).equals("B"), "a scan into one group holds next to nothing: "
                    + scanned);
        }
    }
}
